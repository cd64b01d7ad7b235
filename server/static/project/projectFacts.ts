// The project-wide queries over every module's facts (moduleFacts.ts): which exports of a module
// other modules register as handlers, and which modules another one starts as a worker. Facts are
// stored per file with their key; the derived answers are computed once per generation (any
// module's facts changing starts a new one) and reused until then, as salsa-style derived queries.
import type { ProjectRegistration } from '../../../rules/api';
import { factsKey, type CallUse, type ModuleFacts } from './moduleFacts';

/** Resolves a relative specifier from a file to a project file (null for packages and missing files). */
export type Resolver = (fromFile: string, specifier: string) => string | null;

/** A module of the project handed to argument `index` of the export `setter` (ModuleInjection, resolved). */
export interface InjectedFile {
  setter: string;
  index: number;
  file: string;
}

interface Derived {
  registrations: Map<string, ProjectRegistration[]>;
  workers: Set<string>;
  injected: Map<string, InjectedFile[]>;
}

/** `module.exports = api` of a module-level name: an export not listed on its own is a member of `api`. */
function holderOf(exports: ReadonlyMap<string, string | null> | undefined, exported: string): string | null {
  if (exports === undefined || exported === 'default' || exports.has(exported)) return null;
  return exports.get('default') ?? null;
}

export class ProjectFacts {
  private readonly modules = new Map<string, { key: string; facts: ModuleFacts }>();
  /** Per module, the other modules' exports its hot code calls (known once it was analyzed, not merely scanned). */
  private readonly calls = new Map<string, { key: string; calls: readonly CallUse[] }>();
  private derived: Derived | null = null;
  /** Where a specifier leads from a file: kept across generations (facts change far more often than files appear). */
  private readonly resolved = new Map<string, string | null>();

  constructor(private readonly resolve: Resolver) {}

  /** Records a module's facts; true when they differ from what was known (other modules' answers may change). */
  note(filePath: string, facts: ModuleFacts): boolean {
    const key = factsKey(facts);
    if (this.modules.get(filePath)?.key === key) return false;
    this.modules.set(filePath, { key, facts });
    this.derived = null;
    return true;
  }

  /**
   * Records the exports of other modules that a module's hot code calls (its analysis found them);
   * true when they differ from what was known.
   */
  noteCalls(filePath: string, calls: readonly CallUse[]): boolean {
    const key = JSON.stringify(calls);
    if ((this.calls.get(filePath)?.key ?? '[]') === key) return false;
    if (calls.length === 0) this.calls.delete(filePath);
    else this.calls.set(filePath, { key, calls });
    this.derived = null;
    return true;
  }

  /** Forgets a module's facts, and where specifiers led (a file appeared or went away). */
  forget(filePath: string): void {
    if (this.modules.delete(filePath)) this.derived = null;
    if (this.calls.delete(filePath)) this.derived = null;
    this.resolved.clear();
  }

  /**
   * Exports of `filePath` that other modules register as handlers, or call from code that runs
   * per request, message or tick (with the local name each is bound to).
   */
  registrationsOf(filePath: string): readonly ProjectRegistration[] {
    return this.answers().registrations.get(filePath) ?? [];
  }

  /** `filePath` is started as a child process or worker thread by a module of the project. */
  startedAsWorker(filePath: string): boolean {
    return this.answers().workers.has(filePath);
  }

  /** The modules other modules hand to exports of `filePath` (its setters' arguments). */
  injectedInto(filePath: string): readonly InjectedFile[] {
    return this.answers().injected.get(filePath) ?? [];
  }

  private answers(): Derived {
    if (this.derived !== null) return this.derived;
    const registrations = new Map<string, ProjectRegistration[]>();
    const workers = new Set<string>();
    const injected = new Map<string, InjectedFile[]>();
    const resolved = this.resolved;
    const resolve = (from: string, specifier: string): string | null => {
      const key = `${from}\0${specifier}`;
      let target = resolved.get(key);
      if (target === undefined) {
        try {
          target = this.resolve(from, specifier);
        } catch {
          target = null;
        }
        resolved.set(key, target);
      }
      return target;
    };
    /**
     * One registration of a file's export (or class method) per kind and registering module: the
     * first one noted stays. An export and a class method of the same name are different targets.
     */
    const add = (file: string, registration: ProjectRegistration): void => {
      let list = registrations.get(file);
      if (list === undefined) registrations.set(file, (list = []));
      const same = (r: ProjectRegistration): boolean => r.exported === registration.exported && r.kind === registration.kind
        && r.registeredIn === registration.registeredIn && r.method?.className === registration.method?.className
        && r.method?.name === registration.method?.name
        && r.changesState === registration.changesState && r.occasional === registration.occasional
        && r.fromServingModule === registration.fromServingModule;
      if (!list.some(same)) list.push(registration);
    };
    // Classes by their name in lower case, for calls on injected dependencies.
    const classes = new Map<string, { file: string; name: string; methods: readonly string[] }[]>();
    for (const [file, { facts }] of this.modules) {
      for (const [name, methods] of facts.classes) {
        const key = name.toLowerCase();
        let list = classes.get(key);
        if (list === undefined) classes.set(key, (list = []));
        list.push({ file, name, methods });
      }
    }
    // `this.userService.changePassword()`: the class the field is named after (UserService), when
    // exactly one class of the project is named so and has the method. The field's name is the
    // only evidence of what it holds, so two candidates (or none) resolve to nothing.
    const methodCall = (from: string, use: CallUse): void => {
      const candidates = (classes.get(use.receiver!.toLowerCase()) ?? []).filter((c) => c.methods.includes(use.exported));
      if (candidates.length !== 1) return;
      const { file, name } = candidates[0];
      const registration: ProjectRegistration = {
        exported: use.exported, local: null, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from, highRate: use.highRate,
        method: { className: name, name: use.exported },
      };
      if (use.changesState === true) registration.changesState = true;
      if (use.occasional === true) registration.occasional = true;
      if (use.fromServingModule === true) registration.fromServingModule = true;
      add(file, registration);
    };
    // `const db = await getDb(); db.find()`: what a function of the target module returned; the one
    // class declared there with that method (two candidates, or none, resolve to nothing).
    const resultMethodCall = (from: string, target: string, use: CallUse): void => {
      const method = use.resultMethod!;
      const candidates = (this.modules.get(target)?.facts.classes ?? []).filter(([, methods]) => methods.includes(method));
      if (candidates.length !== 1) return;
      const registration: ProjectRegistration = {
        exported: method, local: null, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from, highRate: use.highRate,
        method: { className: candidates[0][0], name: method },
      };
      if (use.changesState === true) registration.changesState = true;
      if (use.occasional === true) registration.occasional = true;
      if (use.fromServingModule === true) registration.fromServingModule = true;
      add(target, registration);
    };
    // `global.Git = require('./lib/git')`: the module each global names, when the project sets it to one module only.
    const globals = new Map<string, string | null>();
    for (const [from, { facts }] of this.modules) {
      for (const [name, specifier] of facts.globals) {
        const file = resolve(from, specifier);
        if (file === null) continue;
        const known = globals.get(name);
        globals.set(name, known === undefined || known === file ? file : null);
      }
    }
    // `app.strategy = require('./tokens')(app)`: the files whose functions' results each field is set to.
    const fieldFiles = new Map<string, Set<string>>();
    for (const [from, { facts }] of this.modules) {
      for (const [field, specifier] of facts.fieldResults) {
        const file = resolve(from, specifier);
        if (file === null) continue;
        let files = fieldFiles.get(field);
        if (files === undefined) fieldFiles.set(field, (files = new Set()));
        files.add(file);
      }
    }
    // `app.strategy.requestAccess()`: that member of what the function of each such file returned.
    const fieldCall = (from: string, use: CallUse): void => {
      for (const file of fieldFiles.get(use.field!) ?? []) {
        if (file === from) continue;
        const registration: ProjectRegistration = { exported: use.exported, local: null, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from, highRate: use.highRate };
        if (use.changesState === true) registration.changesState = true;
        if (use.occasional === true) registration.occasional = true;
        if (use.fromServingModule === true) registration.fromServingModule = true;
        add(file, registration);
      }
    };
    for (const [from, { facts }] of this.modules) {
      for (const use of facts.handlerUses) {
        let target = resolve(from, use.specifier);
        let exported = use.exported;
        // `controllers.auth.login`: the export `login` of the module that `controllers`' export `auth` is.
        if (use.member !== undefined && target !== null) {
          const module = this.modules.get(target)?.facts.moduleExports.find(([name]) => name === use.exported)?.[1];
          target = module === undefined ? null : resolve(target, module);
          exported = use.member;
        }
        if (target === null || target === from) continue;
        const exports = this.modules.get(target)?.facts.exports;
        const local = exports?.get(exported) ?? null;
        const holder = holderOf(exports, exported);
        const registration: ProjectRegistration = { exported, local, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from };
        if (holder !== null) registration.holder = holder;
        if (use.changesState === true) registration.changesState = true;
        if (use.occasional === true) registration.occasional = true;
        add(target, registration);
      }
      for (const use of this.calls.get(from)?.calls ?? []) {
        if (use.receiver !== undefined) {
          methodCall(from, use);
          continue;
        }
        if (use.field !== undefined) {
          fieldCall(from, use);
          continue;
        }
        const target = resolve(from, use.specifier);
        if (target === null || target === from) continue;
        if (use.resultMethod !== undefined) {
          resultMethodCall(from, target, use);
          continue;
        }
        const exports = this.modules.get(target)?.facts.exports;
        const local = exports?.get(use.exported) ?? null;
        const holder = holderOf(exports, use.exported);
        const registration: ProjectRegistration = { exported: use.exported, local, kind: use.kind, intervalMs: use.intervalMs, registeredIn: from, highRate: use.highRate };
        if (holder !== null && use.constructs !== true && use.instanceMethod === undefined) registration.holder = holder;
        if (use.changesState === true) registration.changesState = true;
        if (use.occasional === true) registration.occasional = true;
        if (use.fromServingModule === true) registration.fromServingModule = true;
        // `new mod.Service()`: the class the export is bound to runs its constructor (a class of the module, by its local name).
        if (use.constructs === true) registration.method = { className: local ?? use.exported, name: 'constructor' };
        // `s.run()` of `const s = new mod.Service()`: that method of the class.
        if (use.instanceMethod !== undefined) registration.method = { className: local ?? use.exported, name: use.instanceMethod };
        add(target, registration);
      }
      for (const injection of facts.injections) {
        const target = resolve(from, injection.specifier);
        const file = injection.global !== undefined ? (globals.get(injection.global) ?? null) : resolve(from, injection.module);
        if (target === null || file === null || target === from || file === target) continue;
        let list = injected.get(target);
        if (list === undefined) injected.set(target, (list = []));
        if (!list.some((i) => i.setter === injection.exported && i.index === injection.index && i.file === file)) {
          list.push({ setter: injection.exported, index: injection.index, file });
        }
      }
      for (const entry of facts.workerEntries) {
        const target = resolve(from, entry);
        if (target !== null && target !== from) workers.add(target);
      }
    }
    this.derived = { registrations, workers, injected };
    return this.derived;
  }
}
