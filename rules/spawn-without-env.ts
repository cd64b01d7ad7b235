// spawn-without-env: child_process calls that copy the whole environment on every call (seed 003).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ExecutionContext, Fix, HotContext, LocalBinding, ModuleMember, ReportDescriptor, RuleContext, RuleModule } from './api';
import { compiledCallee } from './detectors/compiledCallee';
import { runsOftenByCode } from './detectors/runsOften';
import { inServingProcessByLoadsOnly, servingTimerText } from './detectors/servingTimer';
import { isToolingFile } from './detectors/toolingFiles';
import { viaText } from './detectors/viaText';

/** child_process functions and whether their second argument may be an `args` array. */
const SPAWNERS = new Map<string, { takesArgs: boolean }>([
  ['exec', { takesArgs: false }],
  ['execSync', { takesArgs: false }],
  ['execFile', { takesArgs: true }],
  ['execFileSync', { takesArgs: true }],
  ['spawn', { takesArgs: true }],
  ['spawnSync', { takesArgs: true }],
  ['fork', { takesArgs: true }],
]);

/**
 * Packages that spawn through child_process and hand the child the whole process.env unless told
 * otherwise, by `module:member` as `qualifiedNameOf` names a callee ('execa:' is the module called
 * itself). `extendsEnv`: execa merges process.env into the env it is given (`extendEnv` defaults
 * to true), so only `extendEnv: false` keeps the copy small; the others pass `env` on as is.
 */
const WRAPPERS = new Map<string, { takesArgs: boolean; extendsEnv?: true }>([
  ['cross-spawn:', { takesArgs: true }],
  ['cross-spawn:spawn', { takesArgs: true }],
  ['cross-spawn:sync', { takesArgs: true }],
  ['child-process-promise:exec', { takesArgs: false }],
  ['child-process-promise:execFile', { takesArgs: true }],
  ['child-process-promise:spawn', { takesArgs: true }],
  ['child-process-promise:fork', { takesArgs: true }],
  ['@npmcli/promise-spawn:', { takesArgs: true }],
  ...['', 'execa', 'sync', 'execaSync', 'node', 'execaNode'].map((member) => [`execa:${member}`, { takesArgs: true, extendsEnv: true }] as const),
  ...['command', 'commandSync', 'execaCommand', 'execaCommandSync', 'shell', 'shellSync'].map((member) => [`execa:${member}`, { takesArgs: false, extendsEnv: true }] as const),
]);

/** The members of the wrappers, for the cheap pre-check of `x.member(...)` callees. */
const WRAPPER_MEMBERS = new Set([...WRAPPERS.keys()].map((key) => key.slice(key.lastIndexOf(':') + 1)).filter((member) => member !== ''));
// `(0, execa_1.default)(…)`: a compiled call of a module's default export.
WRAPPER_MEMBERS.add('default');

const MINIMAL_ENV = '{ PATH: process.env.PATH }';

/**
 * Commands that need nothing from the environment but PATH (system tools reading /proc or the
 * kernel): only for these is `{ PATH }` offered as a fix. `node`, `npm`, `git`, `docker`, a shell
 * script... read their configuration from the environment (HOME, NODE_OPTIONS, npm_config_*,
 * DOCKER_HOST), where a PATH-only env would break them.
 */
const SYSTEM_TOOLS = new Set([
  'df', 'free', 'ps', 'uptime', 'hostname', 'uname', 'id', 'whoami', 'nproc', 'vmstat', 'iostat', 'mpstat', 'netstat',
  'ss', 'lsof', 'du', 'ls', 'cat', 'wc', 'top', 'ip', 'ifconfig', 'sysctl', 'getconf', 'pgrep', 'pidof', 'stat', 'date', 'kill',
]);

/** The program a spawn runs when the code names it: `execSync('free -m')` -> 'free', `spawn('/bin/df', ...)` -> 'df'. */
function commandOf(call: t.CallExpression): string | null {
  const first = call.arguments[0];
  let text: string | null = null;
  if (first?.type === 'StringLiteral') text = first.value;
  else if (first?.type === 'TemplateLiteral') text = first.quasis[0]?.value.cooked ?? null;
  if (text === null) return null;
  const word = text.trim().split(/\s+/)[0] ?? '';
  const base = word.slice(word.lastIndexOf('/') + 1);
  return base === '' ? null : base;
}

/** Where the call runs while the process serves: per request or message, or in a periodic timer on the serving event loop; null otherwise. */
function servingText(context: ExecutionContext, hot: HotContext, filePath: string): string | null {
  if (context.kind === 'request') return context.perConnection ? 'while handling a connection' : 'while handling a request';
  if (context.kind === 'message') return 'while handling a message';
  return servingTimerText(context, hot, filePath);
}

function isProcessEnv(node: t.Node | null | undefined): boolean {
  return !!node && node.type === 'MemberExpression' && !node.computed
    && node.object.type === 'Identifier' && node.object.name === 'process'
    && node.property.type === 'Identifier' && node.property.name === 'env';
}

function isFunctionArg(node: t.Node): boolean {
  return node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression';
}

function keyIs(property: t.ObjectProperty | t.ObjectMethod, name: string): boolean {
  if (!property.computed && property.key.type === 'Identifier') return property.key.name === name;
  return property.key.type === 'StringLiteral' && property.key.value === name;
}

/** `const opts = { ... }` in scope -> its object literal, so `execSync(cmd, opts)` can be judged. */
function objectOfBinding(path: NodePath, node: t.Node, lookup: Lookup): t.ObjectExpression | null {
  if (node.type !== 'Identifier') return null;
  const binding = lookup(path, node.name);
  if (!binding || !binding.constant) return null;
  const declarator = binding.path.node;
  return declarator.type === 'VariableDeclarator' && declarator.init?.type === 'ObjectExpression' ? declarator.init : null;
}

/** `const argv = ['-k']` in scope: the name holds an args list, not options. */
function arrayOfBinding(path: NodePath, node: t.Node, lookup: Lookup): boolean {
  if (node.type !== 'Identifier') return false;
  const binding = lookup(path, node.name);
  const declarator = binding?.path.node;
  return declarator?.type === 'VariableDeclarator' && declarator.init?.type === 'ArrayExpression';
}

/** An env value that hands over every variable: process.env, {...process.env}, Object.assign({}, process.env). */
function wholeEnvPart(path: NodePath, value: t.Node, lookup: Lookup): t.Node | null {
  if (isProcessEnv(value)) return value;
  if (value.type === 'ObjectExpression') {
    const spread = value.properties.find((p): p is t.SpreadElement => p.type === 'SpreadElement' && isProcessEnv(p.argument));
    return spread ?? null;
  }
  if (value.type === 'CallExpression' && value.callee.type === 'MemberExpression'
    && value.callee.object.type === 'Identifier' && value.callee.object.name === 'Object'
    && value.callee.property.type === 'Identifier' && value.callee.property.name === 'assign') {
    return value.arguments.find((arg) => isProcessEnv(arg)) ?? null;
  }
  if (value.type === 'Identifier') {
    const binding = lookup(path, value.name);
    const declarator = binding?.constant ? binding.path.node : null;
    if (declarator && declarator.type === 'VariableDeclarator' && declarator.init) {
      return wholeEnvPart(path, declarator.init, lookup) ? value : null;
    }
  }
  return null;
}

/** `const execAsync = promisify(exec)` / `util.promisify(cp.execFile)`: the child_process function behind it. */
function promisifiedOrigin(path: NodePath, callee: t.Node, context: RuleContext): ModuleMember | null {
  if (callee.type !== 'Identifier') return null;
  const binding = context.bindingOf(path, callee.name);
  const declarator = binding?.declarator;
  if (!binding || !declarator || declarator.init?.type !== 'CallExpression') return null;
  const wrapper = declarator.init;
  if (wrapper.arguments.length !== 1 || context.qualifiedNameOf(binding.path, wrapper.callee) !== 'util:promisify') return null;
  return context.moduleMemberOf(binding.path, wrapper.arguments[0]);
}

type OptionsShape =
  | { kind: 'absent'; insertAt: number; text: string }
  | { kind: 'literal'; object: t.ObjectExpression; atCall: boolean }
  /** Options seen through names, fields and `a ? b : c`: every object literal they may be. */
  | { kind: 'resolved'; objects: t.ObjectExpression[] }
  | { kind: 'unknown' };

type Lookup = RuleContext['bindingOf'];

/** Direct children of a node (what a walk descends into). */
function childrenOf(node: t.Node): t.Node[] {
  const out: t.Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments' || key === 'extra') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === 'object' && typeof item.type === 'string') out.push(item as t.Node);
    } else if (value && typeof value === 'object' && typeof (value as t.Node).type === 'string') {
      out.push(value as t.Node);
    }
  }
  return out;
}

/**
 * `this.execOpt = { ... }` in a constructor, read as `this.execOpt` or through `var node = this` as
 * `node.execOpt` (Node-RED's nodes, labelled on @node-red/nodes exec): the one object literal the
 * field is set to in the function that owns `this`, unless the code writes into it an `env`, a computed
 * key or an Object.assign (then it is unknown).
 */
function fieldObject(path: NodePath, member: t.MemberExpression, lookup: Lookup): { value: t.Node; at: NodePath } | null {
  if (member.computed || member.property.type !== 'Identifier') return null;
  const field = member.property.name;
  let owner: NodePath | null = null;
  if (member.object.type === 'ThisExpression') {
    owner = path.findParent((p) => p.isFunction() && !p.isArrowFunctionExpression());
  } else if (member.object.type === 'Identifier') {
    const binding = lookup(path, member.object.name);
    const declarator = binding?.constant ? binding.path.node : null;
    if (declarator?.type === 'VariableDeclarator' && declarator.init?.type === 'ThisExpression') {
      owner = binding!.path.findParent((p) => p.isFunction() && !p.isArrowFunctionExpression());
    }
  }
  if (!owner) return null;
  // Names of `this` in the owner: `this` itself and `var self = this` aliases declared in its body.
  const aliases = new Set<string>();
  const body = (owner.node as t.Function).body;
  if (body.type === 'BlockStatement') {
    for (const statement of body.body) {
      if (statement.type !== 'VariableDeclaration') continue;
      for (const d of statement.declarations) if (d.id.type === 'Identifier' && d.init?.type === 'ThisExpression') aliases.add(d.id.name);
    }
  }
  const isField = (node: t.Node): boolean => node.type === 'MemberExpression' && !node.computed
    && node.property.type === 'Identifier' && node.property.name === field
    && (node.object.type === 'ThisExpression' || (node.object.type === 'Identifier' && aliases.has(node.object.name)));
  const values: t.Node[] = [];
  let touched = false;
  const walk = (node: t.Node, depth: number): void => {
    if (touched || depth > 200) return;
    if (node.type === 'AssignmentExpression' && node.left.type === 'MemberExpression') {
      if (isField(node.left)) {
        if (node.operator === '=') values.push(node.right);
        else touched = true;
      }
      // `node.execOpt.env = ...`, `node.execOpt[key] = ...`: what the field holds changes.
      const inner = node.left.object;
      const key = node.left.computed ? null : node.left.property.type === 'Identifier' ? node.left.property.name : null;
      if (isField(inner) && (key === null || key === 'env')) touched = true;
    }
    if (node.type === 'CallExpression' && node.arguments[0] && isField(node.arguments[0])
      && node.callee.type === 'MemberExpression' && node.callee.property.type === 'Identifier' && node.callee.property.name === 'assign') {
      touched = true;
    }
    for (const child of childrenOf(node)) walk(child, depth + 1);
  };
  walk(body, 0);
  if (touched || values.length !== 1) return null;
  return { value: values[0], at: owner };
}

/**
 * `var opts = {}; if (debug) { opts = { execArgv: [...] }; } fork(file, [], opts)`: a local of a
 * function, declared with a value and only ever replaced whole (`=`) in that function: every value
 * it is given. Null when anything else writes it or into it (`opts.env = ...`, `opts[k] = ...`,
 * `Object.assign(opts, ...)`, `+=`, `++`), when a function nested in it declares the same name (a
 * write there may be another variable), or when it is a module-level name (any function may write it).
 */
function reassignedLocal(binding: LocalBinding): t.Node[] | null {
  const declarator = binding.path.node;
  if (binding.topLevel || declarator.type !== 'VariableDeclarator' || !declarator.init || declarator.id.type !== 'Identifier') return null;
  const name = declarator.id.name;
  const owner = binding.path.findParent((p: NodePath) => p.isFunction());
  if (!owner) return null;
  const values: t.Node[] = [declarator.init];
  let unknown = false;
  const isName = (node: t.Node): boolean => node.type === 'Identifier' && node.name === name;
  const walk = (node: t.Node, depth: number, nested: boolean): void => {
    if (unknown || depth > 200) return;
    if (nested && (node.type === 'VariableDeclarator' && isName(node.id))) unknown = true;
    if (node !== owner.node && (node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression'
      || node.type === 'ObjectMethod' || node.type === 'ClassMethod')) {
      if (node.params.some((param) => param.type === 'Identifier' && param.name === name)) unknown = true;
      nested = true;
    }
    if (node.type === 'AssignmentExpression') {
      if (isName(node.left)) {
        if (node.operator === '=' && !nested) values.push(node.right);
        else unknown = true;
      } else if (node.left.type === 'MemberExpression' && isName(node.left.object)) unknown = true;
      else if (node.left.type !== 'Identifier' && node.left.type !== 'MemberExpression') unknown = true;
    }
    if (node.type === 'UpdateExpression' && isName(node.argument)) unknown = true;
    if (node.type === 'UnaryExpression' && node.operator === 'delete' && node.argument.type === 'MemberExpression' && isName(node.argument.object)) unknown = true;
    if (node.type === 'CallExpression' && node.arguments[0] !== undefined && isName(node.arguments[0])
      && node.callee.type === 'MemberExpression' && node.callee.property.type === 'Identifier' && node.callee.property.name === 'assign') unknown = true;
    for (const child of childrenOf(node)) walk(child, depth + 1, nested);
  };
  walk(owner.node, 0, false);
  return unknown ? null : values;
}

/** Every object literal an options value may be, or null when some part of it cannot be seen. */
function optionObjects(path: NodePath, node: t.Node, lookup: Lookup, depth = 0): t.ObjectExpression[] | null {
  if (depth > 4) return null;
  switch (node.type) {
    case 'ObjectExpression': {
      const out = [node];
      for (const property of node.properties) {
        if (property.type !== 'SpreadElement') continue;
        const spread = optionObjects(path, property.argument, lookup, depth + 1);
        if (spread === null) return null;
        out.push(...spread);
      }
      return out;
    }
    case 'ConditionalExpression': {
      const a = optionObjects(path, node.consequent, lookup, depth + 1);
      const b = a && optionObjects(path, node.alternate, lookup, depth + 1);
      return a && b ? [...a, ...b] : null;
    }
    case 'Identifier': {
      const binding = lookup(path, node.name);
      if (binding !== undefined && !binding.constant) {
        const values = reassignedLocal(binding);
        if (values === null) return null;
        const out: t.ObjectExpression[] = [];
        for (const value of values) {
          const objects = optionObjects(binding.path, value, lookup, depth + 1);
          if (objects === null) return null;
          out.push(...objects);
        }
        return out;
      }
      const declarator = binding?.constant ? binding.path.node : null;
      if (declarator?.type !== 'VariableDeclarator' || !declarator.init) return null;
      return optionObjects(binding!.path, declarator.init, lookup, depth + 1);
    }
    case 'MemberExpression': {
      const field = fieldObject(path, node, lookup);
      return field ? optionObjects(field.at, field.value, lookup, depth + 1) : null;
    }
    default:
      return null;
  }
}

/** Array methods that return an array: `spawn(cmd[0], cmd.slice(1))` hands an args list, never options. */
const ARRAY_RETURNING = new Set(['slice', 'concat', 'map', 'filter', 'flat', 'flatMap', 'split']);

function isArrayMethodCall(node: t.Node): boolean {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return false;
  const property = node.callee.property;
  return !node.callee.computed && property.type === 'Identifier' && ARRAY_RETURNING.has(property.name);
}

/** Where the options argument is (or would go) for this call. */
function optionsOf(path: NodePath<t.CallExpression>, takesArgs: boolean, lookup: Lookup): OptionsShape {
  const args = path.node.arguments;
  const first = args[0];
  if (!first || first.type === 'SpreadElement' || args.some((a) => a.type === 'SpreadElement')) return { kind: 'unknown' };
  let index = 1;
  const second = args[1];
  if (takesArgs && second && second.type !== 'ObjectExpression' && !isFunctionArg(second)) {
    // `spawn(cmd, args)` / `spawn(cmd, argv, opts)`: an array (or anything followed by more) is the args list.
    if (second.type === 'ArrayExpression' || args.length > 2 || arrayOfBinding(path, second, lookup) || isArrayMethodCall(second)) index = 2;
    else if (optionObjects(path, second, lookup) === null) return { kind: 'unknown' };
  }
  const candidate = args[index];
  const withOptions = `{ env: ${MINIMAL_ENV} }`;
  if (!candidate || isFunctionArg(candidate)) {
    const previous = args[index - 1];
    if (candidate) return { kind: 'absent', insertAt: candidate.start ?? 0, text: `${withOptions}, ` };
    return { kind: 'absent', insertAt: previous.end ?? 0, text: `, ${withOptions}` };
  }
  if (candidate.type === 'ObjectExpression') return { kind: 'literal', object: candidate, atCall: true };
  const bound = objectOfBinding(path, candidate, lookup);
  if (bound) return { kind: 'literal', object: bound, atCall: false };
  const objects = optionObjects(path, candidate, lookup);
  return objects === null ? { kind: 'unknown' } : { kind: 'resolved', objects };
}

function addEnvFix(object: t.ObjectExpression): Fix | null {
  if (object.start == null || object.end == null) return null;
  const last = object.properties[object.properties.length - 1];
  if (!last) return { title: 'Pass a minimal env', edits: [{ start: object.start, end: object.end, text: `{ env: ${MINIMAL_ENV} }` }] };
  if (last.end == null) return null;
  return { title: 'Pass a minimal env', edits: [{ start: last.end, end: last.end, text: `, env: ${MINIMAL_ENV}` }] };
}

/** Every object the options may be sets `extendEnv: false` (execa then passes `env` on as it is). */
function setsExtendEnvFalse(objects: readonly t.ObjectExpression[]): boolean {
  return objects.length > 0 && objects.every((object) => object.properties.some((p) =>
    p.type === 'ObjectProperty' && keyIs(p, 'extendEnv') && p.value.type === 'BooleanLiteral' && !p.value.value));
}

const SIZE_ASSUMPTION = 'a cost that grows with the environment (assumed large: one spawn took 7.5 s with 16k variables).';

const TOOL_ADVICE = '{{command}} needs nothing but PATH: pass env: { PATH: process.env.PATH }.';
const CHOOSE_ADVICE = 'Pass only what the child needs (PATH, HOME, its own settings), chosen for {{command}}.';
const TOOL_ADVICE_EXTENDED = '{{command}} needs nothing but PATH: pass env: { PATH: process.env.PATH } and extendEnv: false.';
const CHOOSE_ADVICE_EXTENDED = 'Pass extendEnv: false and only what the child needs (PATH, HOME, its own settings), chosen for {{command}}.';

const rule: RuleModule = {
  meta: {
    id: 'spawn-without-env',
    description: 'Flags child_process calls on a serving path (per request, per message, in a timer of a serving module) without a small explicit env (Node copies all of process.env on every call).',
    // Shown at information while serving (the lead's policy for issue 22): the code proves the copy,
    // the environment's size (what makes it cost seconds) is an assumption the message states.
    defaultSeverity: 'information',
    incident: {
      seed: '003',
      summary: "In a production incident, pods with about 16,000 injected environment variables spent 7.5 s per execSync('free -m') copying them (in Node's normalizeSpawnArguments), and requests stalled for about 20 s. It matters when the environment is large (Kubernetes injects variables per service) and the call runs often.",
    },
    messages: {
      missingEnv: '{{name}}() runs {{where}}{{via}} without an env option: each spawn copies every environment variable synchronously on the event loop, {{size}} {{advice}}',
      extendedEnv: "{{name}}() runs {{where}}{{via}} without extendEnv: false: execa adds every variable of process.env to the child's env, and each spawn copies them synchronously on the event loop, {{size}} {{advice}}",
      wholeEnv: '{{name}}() runs {{where}}{{via}} with the whole process.env: each spawn copies it synchronously on the event loop, {{size}} {{advice}}',
    },
    fixable: true,
  },
  create(context) {
    if (isToolingFile(context.filePath, context.project)) return { visitor: {} };
    /** Reports only on a serving path, known after the traversal; the PATH-only fix only for system tools. */
    const report = (path: NodePath, call: t.CallExpression, descriptor: ReportDescriptor): void => {
      const command = commandOf(call);
      const tool = command !== null && SYSTEM_TOOLS.has(command);
      const extended = descriptor.messageId === 'extendedEnv';
      const advice = (tool ? (extended ? TOOL_ADVICE_EXTENDED : TOOL_ADVICE) : extended ? CHOOSE_ADVICE_EXTENDED : CHOOSE_ADVICE)
        .replace('{{command}}', command !== null ? `'${command}'` : 'the command');
      const shared = {
        ...descriptor,
        fixes: tool ? descriptor.fixes : [],
        data: { ...descriptor.data, advice, size: SIZE_ASSUMPTION },
        describe: (hot: HotContext) => ({ where: servingText(hot.contextOf(path), hot, context.filePath) ?? '', via: viaText(hot.contextOf(path)) }),
      };
      // The copy happens on every spawn and its size is what the message states as an assumption:
      // it costs the service only when the spawn runs often. Shown where the code shows the
      // traffic's rate (a route every request runs, a high-rate message source, a periodic timer);
      // a hint, until a profile measures it, where it does not: a handler known only by its
      // `(req, res)` shape, routes that save, install or remove something, a child's IPC message.
      context.report({
        ...shared,
        when: (hot) => servingText(hot.contextOf(path), hot, context.filePath) !== null,
        evidenceOf: (hot) => (runsOftenByCode(hot.contextOf(path)) && !inServingProcessByLoadsOnly(hot.contextOf(path), hot) ? 'code' : 'frequency'),
      });
    };
    /** The child_process function or wrapper a callee calls, and the name the message gives it. */
    const spawnerOf = (path: NodePath, callee: t.Node): { name: string; spawner: { takesArgs: boolean; extendsEnv?: true } } | null => {
      const imported = context.moduleMemberOf(path, callee);
      const origin = imported ?? promisifiedOrigin(path, callee, context);
      if (origin !== null && origin.source === 'child_process') {
        const spawner = SPAWNERS.get(origin.member);
        // A promisified wrapper is named as the code calls it (`execAsync`), an import by its export.
        return spawner === undefined ? null : { name: imported === null && callee.type === 'Identifier' ? callee.name : origin.member, spawner };
      }
      const qualified = context.qualifiedNameOf(path, callee);
      const wrapper = qualified === null ? undefined : WRAPPERS.get(qualified);
      if (wrapper === undefined) return null;
      // As the code calls it (`execa`, `execa.sync`, `spawn` for cross-spawn's default export); a compiled `m_1.default`, by its module.
      const member = callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : null;
      const name = callee.type === 'Identifier' ? callee.name
        : member !== null && member !== 'default' && callee.type === 'MemberExpression' && callee.object.type === 'Identifier' ? `${callee.object.name}.${member}`
          : qualified!.endsWith(':') ? qualified!.slice(0, -1) : qualified!.replace(':', '.');
      return { name, spawner: wrapper };
    };
    return {
      visitor: {
        CallExpression(path) {
          const callee = compiledCallee(path.node.callee);
          // Cheap pre-check before the import lookup: `x.exec(...)` must at least be named like a spawner.
          if (callee.type === 'MemberExpression' && !(callee.property.type === 'Identifier' && (SPAWNERS.has(callee.property.name) || WRAPPER_MEMBERS.has(callee.property.name)))) return;
          if (callee.type !== 'MemberExpression' && callee.type !== 'Identifier') return;
          const found = spawnerOf(path, callee);
          if (found === null) return;
          const { name, spawner } = found;
          const options = optionsOf(path, spawner.takesArgs, context.bindingOf);
          if (options.kind === 'unknown') return;
          if (spawner.extendsEnv === true) {
            const objects = options.kind === 'absent' ? [] : options.kind === 'literal' ? [options.object] : options.objects;
            if (!setsExtendEnvFalse(objects)) {
              // Only a call without options gets a fix: where an object exists, what it already sets for env is the caller's.
              const fixes: Fix[] = options.kind === 'absent'
                ? [{ title: 'Pass a minimal env', edits: [{ start: options.insertAt, end: options.insertAt, text: options.text.replace(`env: ${MINIMAL_ENV}`, `env: ${MINIMAL_ENV}, extendEnv: false`) }] }]
                : [];
              report(path, path.node, { node: path.node, messageId: 'extendedEnv', data: { name }, fixes });
              return;
            }
          }
          if (options.kind === 'resolved') {
            // Seen through a field or a conditional: report only when no object it may be sets env.
            const setsEnv = options.objects.some((object) => object.properties.some((p) =>
              (p.type === 'ObjectProperty' || p.type === 'ObjectMethod') && keyIs(p, 'env')));
            if (!setsEnv) report(path, path.node, { node: path.node, messageId: 'missingEnv', data: { name }, fixes: [] });
            return;
          }
          if (options.kind === 'absent') {
            report(path, path.node, {
              node: path.node,
              messageId: 'missingEnv',
              data: { name },
              fixes: [{ title: 'Pass a minimal env', edits: [{ start: options.insertAt, end: options.insertAt, text: options.text }] }],
            });
            return;
          }
          const properties = options.object.properties;
          const envProperty = properties.find((p): p is t.ObjectProperty | t.ObjectMethod =>
            (p.type === 'ObjectProperty' || p.type === 'ObjectMethod') && keyIs(p, 'env'));
          if (!envProperty) {
            // `{ ...opts }` may carry an env we cannot see: stay quiet rather than guess.
            if (properties.some((p) => p.type === 'SpreadElement')) return;
            const fix = options.atCall ? addEnvFix(options.object) : null;
            report(path, path.node, { node: path.node, messageId: 'missingEnv', data: { name }, fixes: fix ? [fix] : [] });
            return;
          }
          if (envProperty.type !== 'ObjectProperty') return;
          const whole = wholeEnvPart(path, envProperty.value, context.bindingOf);
          if (!whole) return;
          const fixes: Fix[] = [];
          if (options.atCall && whole.start != null && whole.end != null) {
            // Replace only the part that copies everything; other keys the caller added stay.
            const replacement = whole === envProperty.value ? MINIMAL_ENV
              : whole.type === 'SpreadElement' ? 'PATH: process.env.PATH' : isProcessEnv(whole) ? MINIMAL_ENV : null;
            if (replacement !== null && whole.type !== 'Identifier') {
              fixes.push({ title: 'Pass a minimal env', edits: [{ start: whole.start, end: whole.end, text: replacement }] });
            }
          }
          report(path, path.node, { node: envProperty.value, messageId: 'wholeEnv', data: { name }, fixes });
        },
      },
    };
  },
};

export default rule;
