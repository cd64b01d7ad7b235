// What one module's facts say of the other modules of the project (issue 22): the exports of
// other modules it registers as handlers or calls from hot code, the modules it hands to their
// setters, the modules it starts as workers. Derived from its own facts and calls, and from what
// it reads of the others (their exports, classes and globals) through `ProjectLookups`, which
// projectFacts.ts records so that a module's contribution is derived again only when something it
// read changed. The project-wide answers for a module are the contributions naming it, joined.
import type { ProjectRegistration } from '../../../rules/api';
import type { CallUse, ModuleFacts } from './moduleFacts';

/** A module of the project handed to argument `index` of the export `setter` (ModuleInjection, resolved). */
export interface InjectedFile {
  setter: string;
  index: number;
  file: string;
}

/** A class declared at module level in `file`, with its instance methods. */
export interface ProjectClass {
  file: string;
  name: string;
  methods: readonly string[];
}

/** What a contribution may read of the rest of the project; every read is recorded by the caller. */
export interface ProjectLookups {
  /** The facts of a module of the project (undefined when it was not seen). */
  factsOf(file: string): ModuleFacts | undefined;
  /** Where a relative specifier leads from a file (null for packages and missing files). */
  resolve(from: string, specifier: string): string | null;
  /** The classes of the project with this name, in lower case. */
  classesNamed(lowerCaseName: string): readonly ProjectClass[];
  /** The module a global names, when the project sets it to one module only (null: to several; undefined: never). */
  globalModule(name: string): string | null | undefined;
  /** The modules whose function's result some module sets this field to (ModuleFacts.fieldResults). */
  fieldResultFiles(field: string): ReadonlySet<string>;
  /** The classes whose instances some module keeps in a table of this name (ModuleFacts.tableInstances), as `file\0export`. */
  tableClasses(table: string): ReadonlySet<string>;
}

/** One module's contribution, by the module it speaks of. Each list is in the order it was found. */
export interface Contribution {
  registrations: Map<string, ProjectRegistration[]>;
  injected: Map<string, InjectedFile[]>;
  workers: Set<string>;
}

/** `module.exports = api` of a module-level name: an export not listed on its own is a member of `api`. */
function holderOf(exports: ReadonlyMap<string, string | null> | undefined, exported: string): string | null {
  if (exports === undefined || exported === 'default' || exports.has(exported)) return null;
  return exports.get('default') ?? null;
}

/** The flags a call carries over to the registration it makes. */
function withCallFlags(registration: ProjectRegistration, use: CallUse): ProjectRegistration {
  if (use.changesState === true) registration.changesState = true;
  if (use.occasional === true) registration.occasional = true;
  if (use.perConnection === true) registration.perConnection = true;
  if (use.fromServingModule === true) registration.fromServingModule = true;
  return registration;
}

export function contributionOf(from: string, facts: ModuleFacts, calls: readonly CallUse[], project: ProjectLookups): Contribution {
  const registrations = new Map<string, ProjectRegistration[]>();
  const injected = new Map<string, InjectedFile[]>();
  const workers = new Set<string>();
  /**
   * One registration of a file's export (or class method) per kind: the first one noted stays (all
   * of them are registered in `from`). An export and a class method of the same name are different targets.
   */
  const add = (file: string, registration: ProjectRegistration): void => {
    let list = registrations.get(file);
    if (list === undefined) registrations.set(file, (list = []));
    const same = (r: ProjectRegistration): boolean => r.exported === registration.exported && r.kind === registration.kind
      && r.registeredIn === registration.registeredIn && r.method?.className === registration.method?.className
      && r.method?.name === registration.method?.name
      && r.changesState === registration.changesState && r.occasional === registration.occasional && r.perConnection === registration.perConnection
      && r.fromServingModule === registration.fromServingModule && r.returned === registration.returned;
    if (!list.some(same)) list.push(registration);
  };
  // `this.userService.changePassword()`: the class the field is named after (UserService), when
  // exactly one class of the project is named so and has the method. The field's name is the
  // only evidence of what it holds, so two candidates (or none) resolve to nothing.
  const methodCall = (use: CallUse): void => {
    const candidates = project.classesNamed(use.receiver!.toLowerCase()).filter((c) => c.methods.includes(use.exported));
    if (candidates.length !== 1) return;
    const { file, name } = candidates[0];
    add(file, withCallFlags({
      exported: use.exported, local: null, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from, highRate: use.highRate,
      method: { className: name, name: use.exported },
    }, use));
  };
  // `app.strategy.requestAccess()`: that member of what the function of each module the field is set from returned.
  const fieldCall = (use: CallUse): void => {
    for (const file of project.fieldResultFiles(use.field!)) {
      if (file === from) continue;
      add(file, withCallFlags({ exported: use.exported, local: null, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from, highRate: use.highRate }, use));
    }
  };
  // `this.providerList[type].send()`: `send` of each class whose instances the project keeps in a
  // table of that name and that declares it (a class without it, or one inheriting it, is left out).
  const tableCall = (use: CallUse): void => {
    for (const entry of project.tableClasses(use.table!)) {
      const [file, exported] = entry.split('\0');
      if (file === from) continue;
      const facts = project.factsOf(file);
      const className = facts?.exports.get(exported) ?? exported;
      if (!facts?.classes.some(([name, methods]) => name === className && methods.includes(use.exported))) continue;
      add(file, withCallFlags({
        exported: use.exported, local: null, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from, highRate: use.highRate,
        method: { className, name: use.exported },
      }, use));
    }
  };
  // `const db = await getDb(); db.find()`: what a function of the target module returned; the one
  // class declared there with that method (two candidates, or none, resolve to nothing).
  const resultMethodCall = (target: string, use: CallUse): void => {
    const method = use.resultMethod!;
    const candidates = (project.factsOf(target)?.classes ?? []).filter(([, methods]) => methods.includes(method));
    if (candidates.length !== 1) return;
    add(target, withCallFlags({
      exported: method, local: null, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from, highRate: use.highRate,
      method: { className: candidates[0][0], name: method },
    }, use));
  };
  for (const use of facts.handlerUses) {
    let target = project.resolve(from, use.specifier);
    let exported = use.exported;
    // `controllers.auth.login`: the export `login` of the module that `controllers`' export `auth` is.
    if (use.member !== undefined && target !== null) {
      const module = project.factsOf(target)?.moduleExports.find(([name]) => name === use.exported)?.[1];
      target = module === undefined ? null : project.resolve(target, module);
      exported = use.member;
    }
    if (target === null || target === from) continue;
    const exports = project.factsOf(target)?.exports;
    const local = exports?.get(exported) ?? null;
    const holder = holderOf(exports, exported);
    const registration: ProjectRegistration = { exported, local, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from };
    if (holder !== null) registration.holder = holder;
    if (use.changesState === true) registration.changesState = true;
    if (use.occasional === true) registration.occasional = true;
    if (use.perConnection === true) registration.perConnection = true;
    if (use.returned === true) registration.returned = true;
    add(target, registration);
  }
  for (const use of calls) {
    if (use.receiver !== undefined) {
      methodCall(use);
      continue;
    }
    if (use.field !== undefined) {
      fieldCall(use);
      continue;
    }
    if (use.table !== undefined) {
      tableCall(use);
      continue;
    }
    const target = project.resolve(from, use.specifier);
    if (target === null || target === from) continue;
    if (use.resultMethod !== undefined) {
      resultMethodCall(target, use);
      continue;
    }
    const exports = project.factsOf(target)?.exports;
    const local = exports?.get(use.exported) ?? null;
    const holder = holderOf(exports, use.exported);
    const registration: ProjectRegistration = { exported: use.exported, local, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from, highRate: use.highRate };
    if (holder !== null && use.constructs !== true && use.instanceMethod === undefined) registration.holder = holder;
    withCallFlags(registration, use);
    // `new mod.Service()`: the class the export is bound to runs its constructor (a class of the module, by its local name).
    if (use.constructs === true) registration.method = { className: local ?? use.exported, name: 'constructor' };
    // `s.run()` of `const s = new mod.Service()`: that method of the class.
    if (use.instanceMethod !== undefined) registration.method = { className: local ?? use.exported, name: use.instanceMethod };
    // `Notification.send()` of a class imported by name: its static method (HotContext keys it 'static send').
    if (use.staticMethod !== undefined) registration.method = { className: local ?? use.exported, name: `static ${use.staticMethod}` };
    add(target, registration);
  }
  for (const injection of facts.injections) {
    const target = project.resolve(from, injection.specifier);
    const file = injection.global !== undefined ? (project.globalModule(injection.global) ?? null) : project.resolve(from, injection.module);
    if (target === null || file === null || target === from || file === target) continue;
    let list = injected.get(target);
    if (list === undefined) injected.set(target, (list = []));
    list.push({ setter: injection.exported, index: injection.index, file });
  }
  for (const entry of facts.workerEntries) {
    const target = project.resolve(from, entry);
    if (target !== null && target !== from) workers.add(target);
  }
  return { registrations, injected, workers };
}
