// blocking-sync-call: synchronous child_process / fs / zlib / crypto calls while a server serves (seed 003).
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import type { ExecutionContext, HotContext, RuleModule } from './api';
import { inServingProcessByLoadsOnly, servingTimerText } from './detectors/servingTimer';
import { isOnceGuarded } from './detectors/runsOnce';
import { runsOftenByCode } from './detectors/runsOften';
import { compiledCallee } from './detectors/compiledCallee';
import { isToolingFile } from './detectors/toolingFiles';
import { viaText } from './detectors/viaText';

/** Modules whose `*Sync` functions block the event loop; fs-extra and graceful-fs mirror fs. */
const BLOCKING_MODULES = new Set(['child_process', 'fs', 'fs-extra', 'graceful-fs', 'zlib', 'crypto', 'bcrypt', 'bcryptjs']);

/**
 * File system calls that change the disk (write, append, copy, move, delete): each waits for the
 * disk however small the data, and an upload or a log line per event makes them run as often as
 * the traffic. Reads, stats and listings of small files take microseconds: those need frequency.
 */
const WRITING_FS_CALLS = new Set([
  'writeFileSync', 'appendFileSync', 'copyFileSync', 'cpSync', 'renameSync', 'unlinkSync', 'rmSync', 'rmdirSync',
  'truncateSync', 'ftruncateSync', 'writeSync', 'fsyncSync', 'symlinkSync', 'linkSync', 'outputFileSync', 'writeJsonSync',
  'outputJsonSync', 'moveSync', 'removeSync', 'copySync', 'emptyDirSync',
]);

/**
 * Copies of file content: their cost is the size of the file copied (an upload is as large as the
 * client sent), not a small write whose cost matters only when it runs often.
 */
const COPYING_FS_CALLS = new Set(['copyFileSync', 'cpSync', 'copySync', 'moveSync']);

/** Key derivation and generation: the whole work factor runs per call, whatever the input. */
const KEY_DERIVATION_CALLS = new Set(['pbkdf2Sync', 'scryptSync', 'generateKeyPairSync', 'generatePrimeSync']);

/** Password hashing libraries: each *Sync call runs the whole work factor on the event loop. */
const PASSWORD_HASHERS = new Set(['bcrypt', 'bcryptjs']);

function whereText(context: ExecutionContext, hot: HotContext, filePath: string): string | null {
  // A forked process or worker thread that serves nothing itself: blocking it stalls no one else's requests.
  if (hot.inWorker) return null;
  if (context.kind === 'request') return context.perConnection ? 'while handling a connection' : 'while handling a request';
  if (context.kind === 'message') return 'while handling a message';
  // A periodic timer (setInterval, a setTimeout that reschedules itself) on the serving event loop: seed 003's stats timer.
  return servingTimerText(context, hot, filePath);
}

/** `fs.existsSync(dir)` / `fs.mkdirSync(dir)` of `if (!fs.existsSync(dir)) fs.mkdirSync(dir)`: after the first run one stat. */
function isEnsureDirectory(path: NodePath<t.CallExpression>, member: string, source: string): boolean {
  const text = (node: t.Node | undefined): string | null => node?.start != null && node.end != null ? source.slice(node.start, node.end) : null;
  let ifPath: NodePath | null = null;
  let existsCall: t.CallExpression | null = null;
  if (member === 'existsSync') {
    const not = path.parentPath;
    if (not?.node.type !== 'UnaryExpression' || not.node.operator !== '!' || not.parentPath?.node.type !== 'IfStatement') return false;
    ifPath = not.parentPath;
    existsCall = path.node;
  } else if (member === 'mkdirSync') {
    let up: NodePath | null = path.parentPath;
    for (let depth = 0; up && depth < 3 && up.node.type !== 'IfStatement'; depth++) up = up.parentPath;
    if (!up || up.node.type !== 'IfStatement') return false;
    const test = up.node.test;
    if (test.type !== 'UnaryExpression' || test.operator !== '!' || test.argument.type !== 'CallExpression') return false;
    ifPath = up;
    existsCall = test.argument;
  } else {
    return false;
  }
  const ifNode = ifPath.node as t.IfStatement;
  const callee = existsCall.callee;
  const calleeName = callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name
    : callee.type === 'Identifier' ? callee.name : null;
  if (calleeName !== 'existsSync') return false;
  // The consequent only creates the directory tested.
  const body = ifNode.consequent.type === 'BlockStatement' ? ifNode.consequent.body : [ifNode.consequent];
  if (body.length !== 1 || body[0].type !== 'ExpressionStatement' || body[0].expression.type !== 'CallExpression') return false;
  const mkdir = body[0].expression;
  const mkdirName = mkdir.callee.type === 'MemberExpression' && mkdir.callee.property.type === 'Identifier' ? mkdir.callee.property.name
    : mkdir.callee.type === 'Identifier' ? mkdir.callee.name : null;
  return mkdirName === 'mkdirSync' && text(mkdir.arguments[0]) !== null && text(mkdir.arguments[0]) === text(existsCall.arguments[0]);
}

/** bcrypt calls that run the whole cost factor; `genSaltSync` only draws random bytes. */
const PASSWORD_HASH_CALLS = new Set(['hashSync', 'compareSync']);

/**
 * What the blocking costs, told for the kind of call and only what every such call does: an exec
 * waits for a whole child process, a key derivation runs its work factor, a file system call holds
 * the loop until it returns (a buffered write does not wait for the disk itself).
 */
function costText(source: string, member: string): string {
  if (source === 'child_process') return 'nothing else runs until the child process exits.';
  if (source === 'zlib') return 'the whole (de)compression runs on the event loop.';
  if (source === 'crypto') {
    return KEY_DERIVATION_CALLS.has(member) ? 'the whole key derivation or generation runs on the event loop.' : 'the whole computation runs on the event loop.';
  }
  if (PASSWORD_HASHERS.has(source)) {
    return PASSWORD_HASH_CALLS.has(member)
      ? 'the whole bcrypt cost factor runs on the event loop (tens of milliseconds per call at the usual cost factors), while nothing else runs.'
      : 'nothing else runs until it returns.';
  }
  return 'nothing else runs until the file system call returns.';
}

const rule: RuleModule = {
  meta: {
    id: 'blocking-sync-call',
    description: 'Flags synchronous child_process, fs, zlib, crypto and bcrypt calls in request/message handlers and in periodic timers of a serving module.',
    defaultSeverity: 'warning',
    incident: {
      seed: '003',
      summary: "In a production incident, execSync('free -m') and df -k on a web service's stats timer blocked every request for about 20 s: with about 16,000 environment variables in the pod, each call spent 7.5 s copying them. A small synchronous file read takes microseconds; it matters on busy endpoints, with large files or slow disks.",
    },
    messages: {
      blocksExec: '{{call}}() blocks the event loop {{where}}{{via}}: {{cost}} Use the asynchronous {{async}}.',
      blocks: '{{call}}() blocks the event loop {{where}}{{via}}: {{cost}} Use the asynchronous {{async}}.',
      blocksIo: '{{call}}() blocks the event loop {{where}}{{via}}: {{cost}} Use the asynchronous {{async}}.',
    },
    fixable: false,
  },
  create(context) {
    if (isToolingFile(context.filePath, context.project)) return { visitor: {} };
    return {
      visitor: {
        CallExpression(path) {
          const callee = compiledCallee(path.node.callee);
          // Cheap pre-check: only names ending in Sync can matter.
          if (callee.type === 'MemberExpression') {
            if (callee.property.type !== 'Identifier' || !callee.property.name.endsWith('Sync')) return;
          } else if (callee.type !== 'Identifier' || !callee.name.endsWith('Sync')) {
            // A destructured-and-renamed import (`{ execSync: run }`) still resolves below.
            if (callee.type !== 'Identifier' || context.importOf(callee.name) === null) return;
          }
          const origin = context.moduleMemberOf(path, callee);
          if (!origin || !BLOCKING_MODULES.has(origin.source) || !origin.member.endsWith('Sync')) return;
          if (isEnsureDirectory(path, origin.member, context.source) || isOnceGuarded(path, context.source)) return;
          const asyncName = origin.member.slice(0, -'Sync'.length);
          // An exec or a password hash blocks for a long time however rarely it runs; a file read matters when it runs often.
          // A write waits for the disk, a key derivation runs its whole work factor, each time: certain
          // too, once they run while serving.
          const writes = origin.source !== 'crypto' && origin.source !== 'zlib' && WRITING_FS_CALLS.has(origin.member);
          const copies = writes && COPYING_FS_CALLS.has(origin.member);
          const smallWrite = writes && !copies;
          const alsoCertain = writes || (origin.source === 'crypto' && KEY_DERIVATION_CALLS.has(origin.member));
          const certain = origin.source === 'child_process' || (PASSWORD_HASHERS.has(origin.source) && PASSWORD_HASH_CALLS.has(origin.member)) || alsoCertain;
          context.report({
            node: path.node,
            messageId: alsoCertain ? 'blocks' : certain ? 'blocksExec' : 'blocksIo',
            data: { call: `${origin.source}.${origin.member}`, async: `${origin.source}.${asyncName}`, cost: costText(origin.source, origin.member) },
            when: (hot) => whereText(hot.contextOf(path), hot, context.filePath) !== null,
            describe: (hot) => {
              const where = hot.contextOf(path);
              return { via: viaText(where), where: whereText(where, hot, context.filePath) ?? '' };
            },
            // A write waits for the disk each time, but a small one (a settings file, a rename, an
            // unlink) matters only when it runs often: shown where the code shows the traffic's rate,
            // a hint on a route that saves or removes something or a handler guessed from its shape,
            // until a profile measures it. A copy costs what it copies: shown where a request waits
            // for it (an upload) or the traffic's rate runs it, a hint on a message of a source whose
            // rate the code does not show. A timer on a serving event loop only by what modules load
            // is an assumption: a hint.
            evidenceOf: (hot) => {
              const where = hot.contextOf(path);
              if (inServingProcessByLoadsOnly(where, hot)) return 'frequency';
              if (smallWrite) return runsOftenByCode(where) ? 'code' : 'frequency';
              if (copies) return where.kind === 'request' || runsOftenByCode(where) ? 'code' : 'frequency';
              return certain ? 'code' : 'frequency';
            },
          });
        },
      },
    };
  },
};

export default rule;
