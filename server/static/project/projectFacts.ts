// The project-wide queries over every module's facts (moduleFacts.ts): which exports of a module
// other modules register as handlers, and which modules another one starts as a worker.
// Incremental, as salsa-style derived queries: each module's contribution (moduleContribution.ts:
// what its facts and calls say of the other modules) is derived once and kept with what it read
// (other modules' facts, the classes, globals and fields it looked up by name, where specifiers
// led); a module's facts changing derives again only its own contribution and those that read
// it (a class, global or field: those that looked that name up), and a module's answer
// is the contributions naming it, joined in the order the modules were first noted. So analysing
// a workspace file by file costs each module's contribution about once, not the whole project after
// each file, and an edit in the editor re-derives what the edit touched.
import type { ProjectRegistration, ServingKind, ServingLoader } from '../../../rules/api';
import { factsKey, type CallUse, type ModuleFacts } from './moduleFacts';
import { contributionOf, type Contribution, type InjectedFile, type ProjectClass, type ProjectLookups } from './moduleContribution';

export type { InjectedFile } from './moduleContribution';

/** Resolves a relative specifier from a file to a project file (null for packages and missing files). */
export type Resolver = (fromFile: string, specifier: string) => string | null;

interface KnownModule {
  key: string;
  facts: ModuleFacts;
  /** When it was first noted (since it was last forgotten): the order contributions are joined in. */
  order: number;
  /** Its classes and globals as strings: a change to them concerns every module that reads the project's classes or globals. */
  classesKey: string;
  globalsKey: string;
  /** What it loads and starts as workers, as a string: a change rebuilds the serving process's modules. */
  loadsKey: string;
}

/** A module's contribution and everything its derivation read. */
interface Derived {
  contribution: Contribution;
  /** Modules whose facts it read (found or not). */
  read: Set<string>;
  /** Resolution keys (`from\0specifier`) it used. */
  resolutions: Set<string>;
  /** The class names (lower case), globals and fields it looked up: a change to one of them concerns only the modules that read it. */
  classNames: Set<string>;
  globalNames: Set<string>;
  fields: Set<string>;
}

/** A set in a map of sets, made on first use. */
function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}

const NO_CALLS: readonly CallUse[] = [];
const NO_FILES: ReadonlySet<string> = new Set();

export class ProjectFacts {
  private readonly modules = new Map<string, KnownModule>();
  private nextOrder = 0;
  /** Per module, the other modules' exports its hot code calls (known once it was analyzed, not merely scanned). */
  private readonly calls = new Map<string, { key: string; calls: readonly CallUse[] }>();
  /** Where a specifier leads from a file: kept until a file is forgotten (facts change far more often than files appear). */
  private readonly resolved = new Map<string, string | null>();
  /** A file was forgotten (it may have appeared or gone away): every kept resolution is checked again before the next answer. */
  private resolutionsStale = false;

  private readonly derived = new Map<string, Derived>();
  /** Modules whose contribution is to be derived again before the next answer. */
  private readonly dirty = new Set<string>();
  /** Reverse edges of what each derivation read: file -> modules that read its facts; resolution key -> modules that used it. */
  private readonly readers = new Map<string, Set<string>>();
  private readonly resolutionUsers = new Map<string, Set<string>>();
  /** Per class name (lower case), global, or field: the modules whose derivation looked it up. */
  private readonly classReaders = new Map<string, Set<string>>();
  private readonly globalReaders = new Map<string, Set<string>>();
  private readonly fieldReaders = new Map<string, Set<string>>();
  /** Module -> the modules whose contribution names it. */
  private readonly registrationSources = new Map<string, Set<string>>();
  private readonly injectionSources = new Map<string, Set<string>>();
  private readonly workerSources = new Map<string, Set<string>>();
  /** The joined answers, per module, until a contribution naming it changes. */
  private readonly registrationAnswers = new Map<string, readonly ProjectRegistration[]>();
  private readonly injectionAnswers = new Map<string, readonly InjectedFile[]>();
  /**
   * Per class name (lower case), global, or field: the modules that declare it (a class of that
   * name, `global.<name> = require(...)`, `<x>.<field> = require(...)(...)`). Each lookup reads
   * only these modules, so a module noted costs the lookups of its own names, not a rebuild of an
   * index over the whole project per module (quadratic in the modules of a workspace).
   */
  private readonly classDeclarers = new Map<string, Set<string>>();
  private readonly globalDeclarers = new Map<string, Set<string>>();
  private readonly fieldDeclarers = new Map<string, Set<string>>();
  /** The lookups' answers, dropped per name when a module declaring it changes (all of them when a file comes or goes: resolutions). */
  private readonly classAnswers = new Map<string, ProjectClass[]>();
  private readonly globalAnswers = new Map<string, string | null | undefined>();
  private readonly fieldAnswers = new Map<string, ReadonlySet<string>>();
  /** Modules whose analysis found that they serve (create a server, call listen(), register a route or a message handler). */
  private readonly servingModules = new Map<string, ServingKind>();
  /** Module -> the serving module that loads it; rebuilt when what modules load, serve or start as workers changes. */
  private servingIndex: Map<string, ServingLoader> | null = null;

  constructor(private readonly resolve: Resolver) {}

  /** Records a module's facts; true when they differ from what was known (other modules' answers may change). */
  note(filePath: string, facts: ModuleFacts): boolean {
    const key = factsKey(facts);
    const known = this.modules.get(filePath);
    if (known?.key === key) return false;
    const classesKey = JSON.stringify(facts.classes);
    // Fields set to a module's function's result are read through a project-wide index as globals are.
    const globalsKey = JSON.stringify([facts.globals, facts.fieldResults, facts.tableInstances]);
    const loadsKey = JSON.stringify([facts.requires, facts.workerEntries]);
    if (known?.loadsKey !== loadsKey) this.servingIndex = null;
    this.modules.set(filePath, { key, facts, order: known?.order ?? this.nextOrder++, classesKey, globalsKey, loadsKey });
    this.changed(filePath, known?.facts, (known?.classesKey ?? '[]') !== classesKey ? facts : undefined, (known?.globalsKey ?? '[]') !== globalsKey ? facts : undefined);
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
    // Only this module's own contribution reads its calls.
    this.dirty.add(filePath);
    return true;
  }

  /** Records whether a module's analysis found that it serves; true when that differs from what was known. */
  noteServes(filePath: string, serves: ServingKind | null): boolean {
    if ((this.servingModules.get(filePath) ?? null) === serves) return false;
    if (serves !== null) this.servingModules.set(filePath, serves);
    else this.servingModules.delete(filePath);
    this.servingIndex = null;
    return true;
  }

  /**
   * A module of the project that serves (a server, listen(), a route, a message handler) and loads `filePath` in its
   * process, directly or through other modules (`require`, `import`); null when none does, or
   * when `filePath` serves itself. Modules another one starts as a worker run in their own process:
   * the search does not go through them.
   */
  servingLoaderOf(filePath: string): ServingLoader | null {
    this.update();
    const loader = this.servingLoaders().get(filePath);
    return loader === undefined || loader.file === filePath ? null : loader;
  }

  /** Forgets a module's facts, and where specifiers led (a file appeared or went away). */
  forget(filePath: string): void {
    const known = this.modules.get(filePath);
    if (known !== undefined) {
      this.modules.delete(filePath);
      this.servingIndex = null;
      this.changed(filePath, known.facts, undefined, undefined);
    }
    if (this.calls.delete(filePath)) this.dirty.add(filePath);
    this.resolutionsStale = true;
  }

  /**
   * Exports of `filePath` that other modules register as handlers, or call from code that runs
   * per request, message or tick (with the local name each is bound to).
   */
  registrationsOf(filePath: string): readonly ProjectRegistration[] {
    this.update();
    let answer = this.registrationAnswers.get(filePath);
    if (answer === undefined) {
      answer = this.sourcesOf(this.registrationSources, filePath).flatMap((from) => this.derived.get(from)!.contribution.registrations.get(filePath)!);
      this.registrationAnswers.set(filePath, answer);
    }
    return answer;
  }

  /** `filePath` is started as a child process or worker thread by a module of the project. */
  startedAsWorker(filePath: string): boolean {
    this.update();
    return this.workerSources.has(filePath);
  }

  /** The modules other modules hand to exports of `filePath` (its setters' arguments), each once. */
  injectedInto(filePath: string): readonly InjectedFile[] {
    this.update();
    let answer = this.injectionAnswers.get(filePath);
    if (answer === undefined) {
      const list: InjectedFile[] = [];
      for (const from of this.sourcesOf(this.injectionSources, filePath)) {
        for (const injection of this.derived.get(from)!.contribution.injected.get(filePath)!) {
          if (!list.some((i) => i.setter === injection.setter && i.index === injection.index && i.file === injection.file)) list.push(injection);
        }
      }
      answer = list;
      this.injectionAnswers.set(filePath, answer);
    }
    return answer;
  }

  /**
   * A module's facts changed (noted, changed or forgotten): what derives from them is derived
   * again. `old` is what was known of it (undefined: nothing); `classes` and `globals` are its new
   * facts when its classes, or its globals and fields, changed (or it is new), else undefined; when
   * it is forgotten both are undefined and everything it declared is withdrawn.
   */
  private changed(filePath: string, old: ModuleFacts | undefined, classes: ModuleFacts | undefined, globals: ModuleFacts | undefined): void {
    const forgotten = !this.modules.has(filePath);
    this.dirty.add(filePath);
    for (const reader of this.readers.get(filePath) ?? []) this.dirty.add(reader);
    if (classes !== undefined || (forgotten && old !== undefined)) {
      const before = (old?.classes ?? []).map(([name]) => name.toLowerCase());
      const after = (classes?.classes ?? []).map(([name]) => name.toLowerCase());
      this.redeclare(filePath, before, after, this.classDeclarers, this.classAnswers, this.classReaders);
    }
    if (globals !== undefined || (forgotten && old !== undefined)) {
      this.redeclare(filePath, (old?.globals ?? []).map(([name]) => name), (globals?.globals ?? []).map(([name]) => name),
        this.globalDeclarers, this.globalAnswers, this.globalReaders);
      // A table's name is kept among the fields' as tableKey(name) (no field's name starts with \0).
      const fieldsOf = (facts: ModuleFacts | undefined): string[] => [
        ...(facts?.fieldResults ?? []).map(([field]) => field), ...(facts?.tableInstances ?? []).map(([table]) => tableKey(table)),
      ];
      this.redeclare(filePath, fieldsOf(old), fieldsOf(globals), this.fieldDeclarers, this.fieldAnswers, this.fieldReaders);
    }
  }

  /**
   * `filePath` declared the names `before` and now `after` (of one kind: class names, globals or
   * fields): its entries among the declarers are replaced, and every name either list holds is
   * looked up again, by the modules that read it, before the next answer.
   */
  private redeclare(filePath: string, before: readonly string[], after: readonly string[], declarers: Map<string, Set<string>>,
    answers: Map<string, unknown>, readers: Map<string, Set<string>>): void {
    for (const name of before) removeFrom(declarers, name, filePath);
    for (const name of after) addTo(declarers, name, filePath);
    for (const name of new Set([...before, ...after])) {
      answers.delete(name);
      for (const reader of readers.get(name) ?? []) this.dirty.add(reader);
    }
  }

  /** The modules that declare `name` (see classDeclarers), in the order they were first noted, as the modules are kept. */
  private declarersOf(declarers: Map<string, Set<string>>, name: string): string[] {
    const files = declarers.get(name);
    if (files === undefined) return [];
    return [...files].sort((a, b) => this.modules.get(a)!.order - this.modules.get(b)!.order);
  }

  /** The modules whose contribution names `filePath`, in the order they were first noted. */
  private sourcesOf(sources: Map<string, Set<string>>, filePath: string): string[] {
    const from = sources.get(filePath);
    if (from === undefined) return [];
    return [...from].sort((a, b) => this.modules.get(a)!.order - this.modules.get(b)!.order);
  }

  /** Brings every contribution up to date with the facts noted since the last answer. */
  private update(): void {
    if (this.resolutionsStale) {
      this.resolutionsStale = false;
      // The globals' modules are resolutions too.
      this.globalAnswers.clear();
      this.fieldAnswers.clear();
      this.servingIndex = null;
      for (const readers of [this.globalReaders, this.fieldReaders]) {
        for (const users of readers.values()) for (const reader of users) this.dirty.add(reader);
      }
      for (const [key, target] of this.resolved) {
        const users = this.resolutionUsers.get(key);
        if (users === undefined) {
          this.resolved.delete(key);
          continue;
        }
        const separator = key.indexOf('\0');
        const now = this.resolveSafely(key.slice(0, separator), key.slice(separator + 1));
        if (now === target) continue;
        this.resolved.set(key, now);
        for (const user of users) this.dirty.add(user);
      }
    }
    if (this.dirty.size === 0) return;
    for (const from of this.dirty) this.derive(from);
    this.dirty.clear();
  }

  private resolveCached(key: string, from: string, specifier: string): string | null {
    let target = this.resolved.get(key);
    if (target === undefined) {
      target = this.resolveSafely(from, specifier);
      this.resolved.set(key, target);
    }
    return target;
  }

  private resolveSafely(from: string, specifier: string): string | null {
    try {
      return this.resolve(from, specifier);
    } catch {
      return null;
    }
  }

  /** Derives one module's contribution again (or drops it when the module is no longer known). */
  private derive(from: string): void {
    const old = this.derived.get(from);
    if (old !== undefined) this.drop(from, old);
    const known = this.modules.get(from);
    if (known === undefined) return;
    const read = new Set<string>();
    const resolutions = new Set<string>();
    const classNames = new Set<string>();
    const globalNames = new Set<string>();
    const fields = new Set<string>();
    const lookups: ProjectLookups = {
      factsOf: (file) => {
        read.add(file);
        return this.modules.get(file)?.facts;
      },
      resolve: (fromFile, specifier) => {
        const key = `${fromFile}\0${specifier}`;
        resolutions.add(key);
        return this.resolveCached(key, fromFile, specifier);
      },
      classesNamed: (name) => {
        classNames.add(name);
        return this.classesNamed(name);
      },
      globalModule: (name) => {
        globalNames.add(name);
        return this.globalModule(name);
      },
      fieldResultFiles: (field) => {
        fields.add(field);
        return this.fieldResultFiles(field);
      },
      tableClasses: (table) => {
        fields.add(tableKey(table));
        return this.tableClasses(table);
      },
    };
    const contribution = contributionOf(from, known.facts, this.calls.get(from)?.calls ?? NO_CALLS, lookups);
    const derived: Derived = { contribution, read, resolutions, classNames, globalNames, fields };
    this.derived.set(from, derived);
    for (const file of read) addTo(this.readers, file, from);
    for (const key of resolutions) addTo(this.resolutionUsers, key, from);
    for (const name of classNames) addTo(this.classReaders, name, from);
    for (const name of globalNames) addTo(this.globalReaders, name, from);
    for (const field of fields) addTo(this.fieldReaders, field, from);
    for (const target of contribution.registrations.keys()) {
      addTo(this.registrationSources, target, from);
      this.registrationAnswers.delete(target);
    }
    for (const target of contribution.injected.keys()) {
      addTo(this.injectionSources, target, from);
      this.injectionAnswers.delete(target);
    }
    for (const target of contribution.workers) addTo(this.workerSources, target, from);
    if (contribution.workers.size > 0) this.servingIndex = null;
  }

  /** Takes a module's contribution, and the record of what it read, out of the project. */
  private drop(from: string, { contribution, read, resolutions, classNames, globalNames, fields }: Derived): void {
    this.derived.delete(from);
    for (const file of read) removeFrom(this.readers, file, from);
    for (const key of resolutions) removeFrom(this.resolutionUsers, key, from);
    for (const name of classNames) removeFrom(this.classReaders, name, from);
    for (const name of globalNames) removeFrom(this.globalReaders, name, from);
    for (const field of fields) removeFrom(this.fieldReaders, field, from);
    for (const target of contribution.registrations.keys()) {
      removeFrom(this.registrationSources, target, from);
      this.registrationAnswers.delete(target);
    }
    for (const target of contribution.injected.keys()) {
      removeFrom(this.injectionSources, target, from);
      this.injectionAnswers.delete(target);
    }
    for (const target of contribution.workers) removeFrom(this.workerSources, target, from);
    if (contribution.workers.size > 0) this.servingIndex = null;
  }

  /**
   * Every module of a serving process, with the serving module and how it is reached: first what
   * each serving module loads (one that serves requests before one that only handles messages,
   * then the nearest); then what the modules that load a serving module load besides it (an entry
   * that loads the broker's client and a state module: both run in its process), `via` naming that
   * module. Edges into a module another one starts as a worker are not followed, either way.
   */
  private servingLoaders(): Map<string, ServingLoader> {
    if (this.servingIndex !== null) return this.servingIndex;
    const loaders = new Map<string, ServingLoader>();
    const loads = new Map<string, string[]>();
    const loadedBy = new Map<string, Set<string>>();
    for (const [from, { facts }] of this.modules) {
      const targets: string[] = [];
      for (const specifier of facts.requires) {
        const target = this.resolveCached(`${from}\0${specifier}`, from, specifier);
        if (target === null || target === from || this.workerSources.has(target)) continue;
        targets.push(target);
        addTo(loadedBy, target, from);
      }
      loads.set(from, targets);
    }
    const rank = (file: string): number => (this.servingModules.get(file) === 'requests' ? 0 : 1);
    const serving = [...this.servingModules.keys()].filter((file) => this.modules.has(file))
      .sort((a, b) => rank(a) - rank(b) || this.modules.get(a)!.order - this.modules.get(b)!.order);
    /** Marks what `from` loads, directly or through others, with `loader` (breadth first, the first mark stays). */
    const spread = (from: string, loader: ServingLoader): void => {
      const queue = [from];
      for (let i = 0; i < queue.length; i++) {
        for (const target of loads.get(queue[i]) ?? []) {
          if (loaders.has(target)) continue;
          loaders.set(target, loader);
          queue.push(target);
        }
      }
    };
    for (const file of serving) loaders.set(file, { file, serves: this.servingModules.get(file)! });
    for (const file of serving) spread(file, loaders.get(file)!);
    // The modules that load a serving module (its process's entry and the modules between). One
    // reached from an earlier serving module has spread its mark already: the first mark stays.
    const climbed = new Set<string>();
    for (const file of serving) {
      const own = this.servingModules.get(file)!;
      const queue = [file];
      for (let i = 0; i < queue.length; i++) {
        for (const parent of loadedBy.get(queue[i]) ?? []) {
          if (climbed.has(parent)) continue;
          climbed.add(parent);
          queue.push(parent);
          const loader: ServingLoader = { file, serves: own, via: parent };
          if (!loaders.has(parent)) loaders.set(parent, loader);
          spread(parent, loader);
        }
      }
    }
    return (this.servingIndex = loaders);
  }

  /** The classes of the project named `lowerCaseName` (in lower case), in the order their modules were first noted. */
  private classesNamed(lowerCaseName: string): ProjectClass[] {
    let classes = this.classAnswers.get(lowerCaseName);
    if (classes !== undefined) return classes;
    classes = [];
    for (const file of this.declarersOf(this.classDeclarers, lowerCaseName)) {
      for (const [name, methods] of this.modules.get(file)!.facts.classes) {
        if (name.toLowerCase() === lowerCaseName) classes.push({ file, name, methods });
      }
    }
    this.classAnswers.set(lowerCaseName, classes);
    return classes;
  }

  // `global.Git = require('./lib/git')`: the module a global names, when the project sets it to one
  // module only (null: to several; undefined: to none).
  private globalModule(name: string): string | null | undefined {
    if (this.globalAnswers.has(name)) return this.globalAnswers.get(name);
    let module: string | null | undefined;
    for (const from of this.declarersOf(this.globalDeclarers, name)) {
      for (const [global, specifier] of this.modules.get(from)!.facts.globals) {
        if (global !== name) continue;
        const file = this.resolveCached(`${from}\0${specifier}`, from, specifier);
        if (file === null) continue;
        module = module === undefined || module === file ? file : null;
      }
    }
    this.globalAnswers.set(name, module);
    return module;
  }

  // `app.strategy = require('./tokens')(app)`: the files whose functions' results the field is set to.
  private fieldResultFiles(field: string): ReadonlySet<string> {
    let files = this.fieldAnswers.get(field);
    if (files !== undefined) return files;
    const found = new Set<string>();
    for (const from of this.declarersOf(this.fieldDeclarers, field)) {
      for (const [name, specifier] of this.modules.get(from)!.facts.fieldResults) {
        if (name !== field) continue;
        const file = this.resolveCached(`${from}\0${specifier}`, from, specifier);
        if (file !== null) found.add(file);
      }
    }
    files = found.size === 0 ? NO_FILES : found;
    this.fieldAnswers.set(field, files);
    return files;
  }

  // `this.providerList[item.name] = item` of `[new Apprise()]`: each class some module keeps instances of in the table, as `file\0export`.
  private tableClasses(table: string): ReadonlySet<string> {
    const key = tableKey(table);
    let classes = this.fieldAnswers.get(key);
    if (classes !== undefined) return classes;
    const found = new Set<string>();
    for (const from of this.declarersOf(this.fieldDeclarers, key)) {
      for (const [name, specifier, exported] of this.modules.get(from)!.facts.tableInstances) {
        if (name !== table) continue;
        const file = this.resolveCached(`${from}\0${specifier}`, from, specifier);
        if (file !== null) found.add(`${file}\0${exported}`);
      }
    }
    classes = found.size === 0 ? NO_FILES : found;
    this.fieldAnswers.set(key, classes);
    return classes;
  }
}

/** The key a table of instances is kept by among the fields (fieldDeclarers, fieldAnswers, fieldReaders). */
function tableKey(table: string): string {
  return `\0table ${table}`;
}
