// spawn-without-env: child_process calls that copy the whole environment on every call (seed 003).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ExecutionContext, Fix, HotContext, ModuleMember, ReportDescriptor, RuleContext, RuleModule } from './api';
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

/** The call runs while the process serves: per request or message, or in a timer of a serving module. */
function isServingPath(context: ExecutionContext, hot: HotContext): boolean {
  // A periodic timer (seed 003's stats timer), not a one-shot retry or a start-up delay.
  return context.kind === 'request' || context.kind === 'message'
    || (context.kind === 'timer' && hot.servesRequests && context.timerIntervalMs !== null);
}

function servingText(context: ExecutionContext): string {
  if (context.kind === 'request') return 'on every request';
  if (context.kind === 'message') return 'on every message';
  return 'in a timer of a module that serves requests';
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
function objectOfBinding(path: NodePath, node: t.Node, context: RuleContext): t.ObjectExpression | null {
  if (node.type !== 'Identifier') return null;
  const binding = context.bindingOf(path, node.name);
  if (!binding || !binding.constant) return null;
  const declarator = binding.path.node;
  return declarator.type === 'VariableDeclarator' && declarator.init?.type === 'ObjectExpression' ? declarator.init : null;
}

/** `const argv = ['-k']` in scope: the name holds an args list, not options. */
function arrayOfBinding(path: NodePath, node: t.Node, context: RuleContext): boolean {
  if (node.type !== 'Identifier') return false;
  const binding = context.bindingOf(path, node.name);
  const declarator = binding?.path.node;
  return declarator?.type === 'VariableDeclarator' && declarator.init?.type === 'ArrayExpression';
}

/** An env value that hands over every variable: process.env, {...process.env}, Object.assign({}, process.env). */
function wholeEnvPart(path: NodePath, value: t.Node, context: RuleContext): t.Node | null {
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
    const binding = context.bindingOf(path, value.name);
    const declarator = binding?.constant ? binding.path.node : null;
    if (declarator && declarator.type === 'VariableDeclarator' && declarator.init) {
      return wholeEnvPart(path, declarator.init, context) ? value : null;
    }
  }
  return null;
}

/** `const execAsync = promisify(exec)` / `util.promisify(cp.execFile)`: the child_process function behind it. */
function promisifiedOrigin(path: NodePath, callee: t.Node, context: RuleContext): ModuleMember | null {
  if (callee.type !== 'Identifier') return null;
  const binding = context.bindingOf(path, callee.name);
  const declarator = binding?.path.node;
  if (!binding || declarator?.type !== 'VariableDeclarator' || declarator.init?.type !== 'CallExpression') return null;
  const wrapper = declarator.init;
  if (wrapper.arguments.length !== 1 || context.qualifiedNameOf(binding.path, wrapper.callee) !== 'util:promisify') return null;
  return context.moduleMemberOf(binding.path, wrapper.arguments[0]);
}

type OptionsShape =
  | { kind: 'absent'; insertAt: number; text: string }
  | { kind: 'literal'; object: t.ObjectExpression; atCall: boolean }
  | { kind: 'unknown' };

/** Where the options argument is (or would go) for this call. */
function optionsOf(path: NodePath<t.CallExpression>, takesArgs: boolean, context: RuleContext): OptionsShape {
  const args = path.node.arguments;
  const first = args[0];
  if (!first || first.type === 'SpreadElement' || args.some((a) => a.type === 'SpreadElement')) return { kind: 'unknown' };
  let index = 1;
  const second = args[1];
  if (takesArgs && second && second.type !== 'ObjectExpression' && !isFunctionArg(second)) {
    // `spawn(cmd, args)` / `spawn(cmd, argv, opts)`: an array (or anything followed by more) is the args list.
    if (second.type === 'ArrayExpression' || args.length > 2 || arrayOfBinding(path, second, context)) index = 2;
    else if (objectOfBinding(path, second, context) === null) return { kind: 'unknown' };
  }
  const candidate = args[index];
  const withOptions = `{ env: ${MINIMAL_ENV} }`;
  if (!candidate || isFunctionArg(candidate)) {
    const previous = args[index - 1];
    if (candidate) return { kind: 'absent', insertAt: candidate.start ?? 0, text: `${withOptions}, ` };
    return { kind: 'absent', insertAt: previous.end ?? 0, text: `, ${withOptions}` };
  }
  if (candidate.type === 'ObjectExpression') return { kind: 'literal', object: candidate, atCall: true };
  const bound = objectOfBinding(path, candidate, context);
  if (bound) return { kind: 'literal', object: bound, atCall: false };
  return { kind: 'unknown' };
}

function addEnvFix(object: t.ObjectExpression): Fix | null {
  if (object.start == null || object.end == null) return null;
  const last = object.properties[object.properties.length - 1];
  if (!last) return { title: 'Pass a minimal env', edits: [{ start: object.start, end: object.end, text: `{ env: ${MINIMAL_ENV} }` }] };
  if (last.end == null) return null;
  return { title: 'Pass a minimal env', edits: [{ start: last.end, end: last.end, text: `, env: ${MINIMAL_ENV}` }] };
}

const INCIDENT = "In seed 003, pods with ~16k injected variables (13,793 seen by execve) spent 7.5 s per call (TestEnv: 7.494s) in Node's normalizeSpawnArguments copying process.env, blocking requests for ~20 s.";
const FREQUENCY = 'It matters when the environment is large (Kubernetes injects variables per service) and the call runs often; a loaded profile showing normalizeSpawnArguments hot raises this finding.';
const TOOL_ADVICE = '{{command}} needs nothing but PATH: pass env: { PATH: process.env.PATH }.';
const CHOOSE_ADVICE = 'Pass only what the child needs (PATH, HOME, its own settings): {{command}} may read configuration from the environment, so choose the variables rather than passing PATH alone.';

const rule: RuleModule = {
  meta: {
    id: 'spawn-without-env',
    description: 'Flags child_process calls on a serving path (per request, per message, in a timer of a serving module) without a small explicit env (Node copies all of process.env on every call).',
    defaultSeverity: 'warning',
    incident: {
      seed: '003',
      summary: "execSync('free -m') / df -k on a stats timer with ~16k env vars: 7.5 s in normalizeSpawnArguments per call.",
    },
    messages: {
      missingEnv: `{{name}}() runs {{where}}{{via}} without an env option: Node copies every environment variable on each call. {{advice}} ${INCIDENT} ${FREQUENCY}`,
      wholeEnv: `{{name}}() runs {{where}}{{via}} with the whole process.env, copied on each call. {{advice}} ${INCIDENT} ${FREQUENCY}`,
    },
    fixable: true,
  },
  create(context) {
    if (isToolingFile(context.filePath)) return { visitor: {} };
    /** Reports only on a serving path, known after the traversal; the PATH-only fix only for system tools. */
    const report = (path: NodePath, call: t.CallExpression, descriptor: ReportDescriptor): void => {
      const command = commandOf(call);
      const tool = command !== null && SYSTEM_TOOLS.has(command);
      const advice = (tool ? TOOL_ADVICE : CHOOSE_ADVICE).replace('{{command}}', command !== null ? `'${command}'` : 'the command');
      context.report({
        ...descriptor,
        fixes: tool ? descriptor.fixes : [],
        data: { ...descriptor.data, advice },
        evidence: 'frequency',
        when: (hot) => isServingPath(hot.contextOf(path), hot),
        describe: (hot) => ({ where: servingText(hot.contextOf(path)), via: viaText(hot.contextOf(path)) }),
      });
    };
    return {
      visitor: {
        CallExpression(path) {
          const callee = path.node.callee;
          // Cheap pre-check before the import lookup: `x.exec(...)` must at least be named like a spawner.
          if (callee.type === 'MemberExpression' && !(callee.property.type === 'Identifier' && SPAWNERS.has(callee.property.name))) return;
          if (callee.type !== 'MemberExpression' && callee.type !== 'Identifier') return;
          const imported = context.moduleMemberOf(path, callee);
          const origin = imported ?? promisifiedOrigin(path, callee, context);
          if (!origin || origin.source !== 'child_process') return;
          const spawner = SPAWNERS.get(origin.member);
          if (!spawner) return;
          // A promisified wrapper is named as the code calls it (`execAsync`), an import by its export.
          const name = imported === null && callee.type === 'Identifier' ? callee.name : origin.member;
          const options = optionsOf(path, spawner.takesArgs, context);
          if (options.kind === 'unknown') return;
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
          const whole = wholeEnvPart(path, envProperty.value, context);
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
