// mongoose-missing-lean: read queries whose documents are only returned or serialized, so
// mongoose's hydration into full documents (completeMany, 2+ s in seed 004) is pure overhead.
import type { NodePath } from '@babel/traverse';
import type * as t from '@babel/types';
import { VISITOR_KEYS, isFunction } from '@babel/types';
import type { HotContext, RuleContext, RuleModule } from './api';
import {
  ModelFinder, memberName, methodCallOn, modelLabel, modelQueryAt, unwrapExpression, valueRoot, whereItRuns, type ModelQuery,
} from './detectors/mongooseModels';
import { isToolingFile } from './detectors/toolingFiles';
import { followQueryExpression, followQueryVariable, queryVariableOf, type QueryFlow, type QueryRun } from './detectors/queryFlow';

/** What a value turned out to be used for. */
interface Usage {
  /** How the value leaves as plain data ('returned', 'sent with res.json()'), if it does. */
  sink: string | null;
  /** A document method, a mutation, or an unknown consumer: hydration may be needed. */
  documentUse: boolean;
  /** Returned to callers the analysis did not follow (another module's, a method's): "only returned" is an assumption. */
  callersUnread?: boolean;
  /** Documents turned into plain objects with `toObject()`/`toJSON()`: with `.lean()` those calls must go. */
  plainCopy?: boolean;
  /** Functions of other modules the query went through (`qry = table.sortQuery(qry)`): assumed to only add query steps. */
  assumedSteps?: readonly string[];
  /** The sink is only reads of these fields of each document (see readFieldByField). */
  fields?: readonly string[];
}

/** 'query': an unexecuted query returned from a plain function (followed like its result in callers). */
type ValueKind = 'doc' | 'array' | 'plain' | 'query';

const NONE: Usage = { sink: null, documentUse: false };
const DOCUMENT_USE: Usage = { sink: null, documentUse: true };
const MAX_FLOW_DEPTH = 6;

/** Response methods that serialize their argument (express `res`, fastify `reply`, koa-ish wrappers). */
const SEND_METHODS = new Set(['json', 'send', 'jsonp']);
/** Methods that mutate a mongoose array or subdocument held in a document property. */
const MUTATING_PROPERTY_METHODS = new Set(['push', 'pull', 'addToSet', 'splice', 'unshift', 'shift', 'pop', 'set', 'remove', 'id', 'create', 'nonAtomicPush']);
/**
 * Methods of a document's field values that only a hydrated document has: a subdocument's
 * `toObject()`/`ownerDocument()`, a mongoose Map's `get()` (a lean Map field is a plain object).
 */
const HYDRATED_FIELD_METHODS = new Set(['get', 'toObject', 'toJSON', 'ownerDocument', 'parent', 'populated', 'isModified']);
/** Document properties a lean object does not have (`id` is mongoose's default virtual). */
const DOCUMENT_ONLY_PROPERTIES = new Set(['id', 'isNew', 'errors', 'schema', 'collection', 'db', 'modelName', 'baseModelName']);
/** Array methods whose callback receives each document as its first parameter. */
const ELEMENT_CALLBACK_METHODS = new Set(['map', 'flatMap', 'forEach', 'filter', 'find', 'findLast', 'some', 'every']);
/** What the array method returns, for following the value further. */
const ARRAY_RESULT_KIND: Record<string, ValueKind | null> = {
  map: 'plain', flatMap: 'plain', filter: 'array', find: 'doc', findLast: 'doc', slice: 'array', concat: 'array',
  sort: 'array', reverse: 'array', toSorted: 'array', toReversed: 'array', at: 'doc',
};

function merge(a: Usage, b: Usage): Usage {
  return {
    sink: a.sink ?? b.sink, documentUse: a.documentUse || b.documentUse,
    callersUnread: a.callersUnread === true || b.callersUnread === true, plainCopy: a.plainCopy === true || b.plainCopy === true,
    assumedSteps: [...(a.assumedSteps ?? []), ...(b.assumedSteps ?? [])],
    fields: a.sink !== null ? a.fields : b.fields,
  };
}

/** What a returned value's sink says when its callers were not all read. */
const RETURNED_UNREAD: Usage = { sink: 'returned (its callers elsewhere were not read: a caller may still use them as documents)', documentUse: false, callersUnread: true };

/** Every read of a variable bound to the value (const/let declarator or a callback parameter). */
function usageOfBinding(id: NodePath, kind: ValueKind, depth: number, context: RuleContext): Usage {
  const node = id.node;
  if (node.type !== 'Identifier') {
    // Destructuring a document reads fields (plain data); destructuring an array takes documents
    // out that we no longer follow.
    return kind === 'array' ? DOCUMENT_USE : NONE;
  }
  const binding = context.bindingOf(id, node.name);
  if (!binding) return DOCUMENT_USE;
  let usage = NONE;
  for (const reference of binding.referencePaths) {
    usage = merge(usage, usageOf(reference, kind, depth + 1, context));
    if (usage.documentUse) return usage;
  }
  return usage;
}

/** At most this many field names are quoted in a message. */
const QUOTED_FIELDS = 3;

/**
 * The fields read from each document of a list through `element` (a loop variable, an array
 * callback's parameter) when every reference to it is a field read (`u.email`, `u._id.toString()`):
 * the documents themselves go nowhere, only values of their fields do. Null when a reference uses
 * the element whole (passed on, returned, stored) or reads a computed member.
 */
function fieldsOnlyRead(element: NodePath, context: RuleContext): string[] | null {
  if (element.node.type !== 'Identifier') return null;
  const binding = context.bindingOf(element, element.node.name);
  if (!binding || binding.referencePaths.length === 0) return null;
  const fields = new Set<string>();
  for (const reference of binding.referencePaths) {
    const parent = reference.parentPath;
    if (!parent?.isMemberExpression() || parent.node.object !== reference.node || parent.node.computed) return null;
    const name = memberName(parent.node);
    if (name === null) return null;
    fields.add(name);
  }
  return [...fields];
}

/**
 * Does the callback whose parameter is `element` return one of its fields as is (`(d) => d.address`)?
 * A field may be a subdocument: what is done with the callback's result then decides.
 */
function returnsElementField(element: NodePath): boolean {
  const fn = element.parentPath;
  if (!fn?.isFunction() || element.node.type !== 'Identifier') return true;
  const name = element.node.name;
  const isElementField = (node: t.Node | null | undefined): boolean => {
    const target = node ? unwrapExpression(node) : null;
    return target?.type === 'MemberExpression' && unwrapExpression(target.object).type === 'Identifier' && (unwrapExpression(target.object) as t.Identifier).name === name;
  };
  if (fn.isArrowFunctionExpression() && fn.node.body.type !== 'BlockStatement') return isElementField(fn.node.body);
  return someReturn(fn.node.body, (ret) => isElementField(ret.argument));
}

/** Does any `return` of this function body (not of functions nested in it) satisfy `test`? */
function someReturn(node: t.Node, test: (ret: t.ReturnStatement) => boolean): boolean {
  if (node.type === 'ReturnStatement') return test(node);
  // A nested function's returns are its own.
  if (isFunction(node)) return false;
  for (const key of VISITOR_KEYS[node.type] ?? []) {
    const value: unknown = (node as unknown as Record<string, unknown>)[key];
    for (const child of Array.isArray(value) ? value : [value]) {
      if (typeof child === 'object' && child !== null && someReturn(child as t.Node, test)) return true;
    }
  }
  return false;
}

/**
 * Each document of a list whose every use was followed and none needs a document, read only field
 * by field (`for (const u of users) emails.push(u.email)`), and leaving by no sink of its own: a
 * lean result serves the same reads. The fields are named so a reader can rule out a virtual.
 */
function readFieldByField(usage: Usage, element: NodePath, context: RuleContext): Usage {
  if (usage.documentUse || usage.sink !== null) return usage;
  const fields = fieldsOnlyRead(element, context);
  return fields === null ? usage : fieldSink(usage, fields);
}

function fieldSink(usage: Usage, fields: readonly string[]): Usage {
  return { ...usage, sink: `read field by field (${quotedFields(fields)})`, fields };
}

function quotedFields(names: readonly string[]): string {
  return names.slice(0, QUOTED_FIELDS).join(', ') + (names.length > QUOTED_FIELDS ? ', …' : '');
}

/** The parameter (by index) of a callback argument, or null when the argument is not an inline function. */
function callbackParam(call: NodePath<t.CallExpression>, index: number): NodePath | null | 'none' {
  const arg = call.get('arguments')[0];
  if (arg?.isArrowFunctionExpression()) return arg.get('params')[index] ?? 'none';
  if (arg?.isFunctionExpression()) return arg.get('params')[index] ?? 'none';
  return null;
}

/**
 * A returned result leaves as data, unless a caller in this module uses it as a document:
 * `const u = await getUser(id); u.save()` keeps `getUser`'s query unflagged.
 */
function usageOfReturn(returnOrArrow: NodePath, kind: ValueKind, depth: number, context: RuleContext): Usage {
  const fn = returnOrArrow.isArrowFunctionExpression() ? returnOrArrow : returnOrArrow.getFunctionParent();
  // A query handed out unexecuted from a plain function (a query helper) is the caller's to finish:
  // it may chain `.lean()` itself, so only what callers in this module do with it counts.
  const returned: Usage = { sink: kind === 'query' ? null : 'returned', documentUse: false };
  const unread: Usage = kind === 'query' ? returned : RETURNED_UNREAD;
  const handedOutQuery = kind === 'query';
  if (kind === 'query') kind = 'array';
  if (!fn) return unread;
  let name: string | null = null;
  if (fn.isFunctionDeclaration() && fn.node.id) name = fn.node.id.name;
  const holder = fn.parentPath;
  if (holder?.isVariableDeclarator() && holder.node.init === fn.node && holder.node.id.type === 'Identifier') name = holder.node.id.name;
  const binding = name === null ? undefined : context.bindingOf(fn.parentPath ?? fn, name);
  // A method, an exported function, one handed elsewhere: some callers are in code not followed here.
  if (!binding) return unread;
  let usage = returned;
  for (const reference of binding.referencePaths) {
    const call = reference.parentPath;
    if (!call?.isCallExpression() || call.node.callee !== reference.node) {
      usage = merge(usage, unread);
      usage.sink = unread.sink;
      continue;
    }
    usage = merge(usage, handedOutQuery ? usageOfQueryValue(call, 'array', depth + 1, context) : usageOf(call, kind, depth + 1, context));
    if (usage.documentUse) break;
  }
  return usage;
}

/** What the documents of one run of a followed query are used for. */
function usageOfRun(run: QueryRun, depth: number, context: RuleContext): Usage {
  if (run.kind === 'value') return usageOf(run.path, run.resultKind, depth + 1, context);
  const param = run.kind === 'then' ? callbackParam(run.call, 0) : run.callback.get('params')[1];
  if (param === null || param === 'none' || param === undefined) return run.kind === 'then' && param === 'none' ? NONE : DOCUMENT_USE;
  return usageOfBinding(param, run.resultKind, depth, context);
}

function usageOfFlow(flow: QueryFlow | null, depth: number, context: RuleContext): Usage {
  if (flow === null) return DOCUMENT_USE; // a use of the query that is not followed
  if (flow.lean) return NONE; // lean on the way: nothing to report
  let usage: Usage = { ...NONE, assumedSteps: flow.assumedSteps };
  for (const run of flow.runs) {
    usage = merge(usage, usageOfRun(run, depth, context));
    if (usage.documentUse) break;
  }
  return usage;
}

/**
 * An unexecuted query (a helper's return, or a chain stored in a variable) followed to where it
 * runs: `const q = build(); q.exec(cb)`, `let q = M.find(); q = sortQuery(q); q.find(cb)`.
 */
function usageOfQueryValue(path: NodePath, resultKind: 'doc' | 'array', depth: number, context: RuleContext): Usage {
  const variable = queryVariableOf(path);
  if (variable !== null) return usageOfFlow(followQueryVariable(variable, resultKind, context), depth, context);
  const flow = followQueryExpression(path, resultKind, context);
  return flow === null ? usageOf(path, resultKind, depth, context) : usageOfFlow(flow, depth, context);
}

/** True when a return leaves an inline callback of an array method or of `.then`. */
function isCallbackReturn(returnOrArrow: NodePath): boolean {
  const fn = returnOrArrow.isArrowFunctionExpression() ? returnOrArrow : returnOrArrow.getFunctionParent();
  const call = fn?.parentPath;
  if (!fn || !call?.isCallExpression() || !call.node.arguments.includes(fn.node as t.Expression)) return false;
  const name = memberName(unwrapExpression(call.node.callee));
  return name !== null && (ELEMENT_CALLBACK_METHODS.has(name) || name === 'reduce' || name === 'then');
}

/** Uses of `obj.a.b...` rooted at a document: mutation or mongoose-specific calls mean document use. */
function usageOfDocumentMember(member: NodePath): Usage {
  let top = member;
  let depth = 1;
  while (top.parentPath?.isMemberExpression() && top.parentPath.node.object === top.node) {
    top = top.parentPath;
    depth += 1;
  }
  const parent = top.parentPath;
  if (!parent) return NONE;
  const property = memberName(member.node);
  if (property !== null && (DOCUMENT_ONLY_PROPERTIES.has(property) || property.startsWith('$'))) return DOCUMENT_USE;
  if (parent.isAssignmentExpression() && parent.node.left === top.node) return DOCUMENT_USE;
  if (parent.isUpdateExpression() || (parent.isUnaryExpression() && parent.node.operator === 'delete')) return DOCUMENT_USE;
  if (parent.isCallExpression() && parent.node.callee === top.node) {
    // doc.toObject() without options: the plain copy `.lean()` gives directly (with options it may
    // ask for virtuals or getters, which a lean result lacks).
    const called = memberName(top.node);
    if (depth === 1 && (called === 'toObject' || called === 'toJSON') && parent.node.arguments.length === 0) {
      return { sink: `turned into plain objects with ${called}()`, documentUse: false, plainCopy: true };
    }
    // doc.save(), doc.populate(), a virtual method: needs the hydrated document.
    if (depth === 1) return DOCUMENT_USE;
    const name = memberName(top.node);
    return name !== null && (MUTATING_PROPERTY_METHODS.has(name) || HYDRATED_FIELD_METHODS.has(name)) ? DOCUMENT_USE : NONE;
  }
  return NONE;
}

/** Follows one occurrence of the value to what consumes it. */
function usageOf(path: NodePath, kind: ValueKind, depth: number, context: RuleContext): Usage {
  if (depth > MAX_FLOW_DEPTH) return DOCUMENT_USE; // too far to tell: assume the document is needed
  const value = valueRoot(path);
  const parent = value.parentPath;
  if (!parent) return NONE;
  const node = value.node;

  if (parent.isReturnStatement() || (parent.isArrowFunctionExpression() && parent.node.body === node)) {
    // Returned from `docs.map(d => d)` or `.then(d => d)`: the caller's result is followed instead.
    return isCallbackReturn(parent) ? NONE : usageOfReturn(parent, kind, depth, context);
  }
  if (parent.isAwaitExpression()) return usageOf(parent, kind, depth + 1, context);
  if (parent.isConditionalExpression() && parent.node.test !== node) return usageOf(parent, kind, depth + 1, context);
  if (parent.isLogicalExpression()) return usageOf(parent, kind, depth + 1, context);
  if (parent.isSequenceExpression()) {
    const last = parent.node.expressions[parent.node.expressions.length - 1];
    return last === node ? usageOf(parent, kind, depth + 1, context) : NONE;
  }
  if (parent.isVariableDeclarator() && parent.node.init === node) return usageOfBinding(parent.get('id'), kind, depth, context);
  if (parent.isAssignmentExpression() && parent.node.right === node) return usageOfAssignment(parent, kind, depth, context);
  if ((parent.isObjectProperty() && parent.node.value === node) || parent.isSpreadElement()) {
    // `{ users: docs }`, `{ ...doc }`: the container carries the value on.
    const container = parent.parentPath;
    if (container && (container.isObjectExpression() || container.isArrayExpression())) return usageOf(container, 'plain', depth + 1, context);
    return DOCUMENT_USE;
  }
  if (parent.isArrayExpression()) {
    const index = parent.node.elements.indexOf(node as t.Expression);
    return usageThroughPromiseAll(parent, index, kind, depth, context) ?? usageOf(parent, 'plain', depth + 1, context);
  }
  if (parent.isCallExpression() && parent.node.arguments.includes(node as t.Expression)) return usageAsArgument(parent, node, kind, depth, context);
  if (parent.isNewExpression()) return DOCUMENT_USE;
  if (parent.isForOfStatement() && parent.node.right === node) {
    if (kind !== 'array') return NONE;
    const left = parent.get('left');
    const declared = left.isVariableDeclaration() ? left.get('declarations')[0]?.get('id') : null;
    return declared ? readFieldByField(usageOfBinding(declared, 'doc', depth, context), declared, context) : DOCUMENT_USE;
  }
  if (parent.isMemberExpression() && parent.node.object === node) return usageAsObject(value, parent, kind, depth, context);
  // Tests, comparisons, template literals, typeof: reading, not needing a document.
  return NONE;
}

/**
 * `const [users, tasks] = await Promise.all([User.find(), Task.find()])`: the query at `index`
 * becomes that element of the pattern. Null when the array is not awaited that way.
 */
function usageThroughPromiseAll(array: NodePath<t.ArrayExpression>, index: number, kind: ValueKind, depth: number, context: RuleContext): Usage | null {
  const call = valueRoot(array).parentPath;
  if (!call?.isCallExpression() || call.node.arguments.length !== 1 || call.node.arguments[0] !== valueRoot(array).node) return null;
  const callee = unwrapExpression(call.node.callee);
  const owner = callee.type === 'MemberExpression' ? unwrapExpression(callee.object) : null;
  if (memberName(callee) !== 'all' || owner?.type !== 'Identifier' || owner.name !== 'Promise') return null;
  const awaited = valueRoot(call).parentPath;
  if (!awaited?.isAwaitExpression()) return null;
  const declarator = valueRoot(awaited).parentPath;
  if (!declarator?.isVariableDeclarator() || declarator.node.init !== valueRoot(awaited).node) return null;
  const pattern = declarator.get('id');
  if (!pattern.isArrayPattern()) return null;
  const element = pattern.get('elements')[index];
  if (!element?.node) return NONE; // skipped hole: the result is dropped
  return element.isIdentifier() ? usageOfBinding(element, kind, depth, context) : DOCUMENT_USE;
}

function usageOfAssignment(assignment: NodePath<t.AssignmentExpression>, kind: ValueKind, depth: number, context: RuleContext): Usage {
  const left = unwrapExpression(assignment.node.left);
  if (left.type === 'Identifier') return usageOfBinding(assignment.get('left'), kind, depth, context);
  // koa `ctx.body = docs` serializes; anything else stores the value somewhere we cannot follow.
  if (left.type === 'MemberExpression' && memberName(left) === 'body') return { sink: 'assigned to ctx.body', documentUse: false };
  return DOCUMENT_USE;
}

/**
 * `renderTable(roles)` where `renderTable` is a function declared in this module: what it does with
 * that parameter. Null when the callee is not such a function.
 */
function usageInHelper(call: NodePath<t.CallExpression>, argument: t.Node, kind: ValueKind, depth: number, context: RuleContext): Usage | null {
  const callee = call.node.callee;
  if (callee.type !== 'Identifier') return null;
  const binding = context.bindingOf(call.get('callee'), callee.name);
  if (!binding) return null;
  let fn: NodePath | null = binding.path;
  if (fn.isVariableDeclarator()) fn = fn.get('init') as NodePath;
  if (!fn || !(fn.isFunctionDeclaration() || fn.isFunctionExpression() || fn.isArrowFunctionExpression())) return null;
  const index = call.node.arguments.indexOf(argument as t.Expression);
  const param = (fn as NodePath<t.Function>).get('params')[index];
  if (!param?.isIdentifier()) return null;
  const usage = usageOfBinding(param, kind, depth + 1, context);
  if (usage.documentUse || (usage.sink !== null && usage.fields === undefined)) return usage;
  const fields = usage.fields === undefined ? '' : ` (${quotedFields(usage.fields)})`;
  return { sink: `read field by field${fields} in ${callee.name}()`, documentUse: false };
}

function usageAsArgument(call: NodePath<t.CallExpression>, argument: t.Node, kind: ValueKind, depth: number, context: RuleContext): Usage {
  const helper = usageInHelper(call, argument, kind, depth, context);
  if (helper !== null) return helper;
  const callee = unwrapExpression(call.node.callee);
  const name = memberName(callee);
  if (callee.type === 'MemberExpression') {
    const object = unwrapExpression(callee.object);
    // res.render('tasks', { tasks }): the view's locals are read by the template, field by field.
    // calipso.theme.renderItem(req, res, template, block, { all }, next): a CMS's own view renderer.
    // Not a form renderer (calipso.form.render(form, { content: doc })): an edit form of one document
    // may read it through getters, and is not where hydration costs.
    const receiverName = object.type === 'Identifier' ? object.name : memberName(object) ?? '';
    if (name !== null && /^render(Item|View|Template|Page)?$/.test(name) && !/form/i.test(receiverName) &&
        call.node.arguments.indexOf(argument as t.Expression) >= 1) {
      // The receiver as written (`table.render()`, `res.render()`), never a guessed `res.`.
      const receiver = object.type === 'Identifier' ? `${object.name}.` : name === 'render' && receiverName !== '' ? `${receiverName}.` : '';
      return { sink: `rendered with ${receiver}${name}()`, documentUse: false };
    }
    if (name === 'stringify' && object.type === 'Identifier' && object.name === 'JSON') {
      return { sink: 'serialized with JSON.stringify()', documentUse: false };
    }
    if (name !== null && (SEND_METHODS.has(name) || (name === 'end' && /^(res|response|reply)$/.test(receiverName)))) {
      const receiver = object.type === 'Identifier' ? object.name : receiverName;
      return { sink: `sent with ${receiver}.${name}()`, documentUse: false };
    }
  }
  // Any other function may call document methods on it.
  return DOCUMENT_USE;
}

function usageAsObject(value: NodePath, member: NodePath<t.MemberExpression>, kind: ValueKind, depth: number, context: RuleContext): Usage {
  if (kind === 'plain') return NONE;
  if (kind === 'doc') return usageOfDocumentMember(member);
  const name = memberName(member.node);
  if (member.node.computed && name === null) return usageOf(member, 'doc', depth + 1, context); // docs[i]
  if (name === 'length') return NONE;
  const call = methodCallOn(value);
  if (call === null) return NONE;
  if (ELEMENT_CALLBACK_METHODS.has(call.name) || call.name === 'reduce') {
    const param = callbackParam(call.call, call.name === 'reduce' ? 1 : 0);
    if (param === null) return DOCUMENT_USE; // docs.map(format): an unknown function sees each document
    const perElement = param === 'none' ? NONE : usageOfBinding(param, 'doc', depth, context);
    if (perElement.documentUse) return perElement;
    const resultKind = ARRAY_RESULT_KIND[call.name] ?? null;
    const usage = resultKind === null ? perElement : merge(perElement, usageOf(call.call, resultKind, depth + 1, context));
    if (param === 'none') return usage;
    const fields = fieldsOnlyRead(param, context);
    if (fields === null) return usage;
    // `roles.map((r) => r._id.toString())` stored in `req.roles`: what a map or forEach gives is no
    // document when each element is only read field by field, wherever that result goes (unless it
    // leaves by a sink of its own, `res.json(docs.map(...))`). A filter's or find's result is documents.
    const plainResult = resultKind === 'plain' || resultKind === null;
    if (usage.documentUse) return plainResult && !returnsElementField(param) ? fieldSink(perElement, fields) : usage;
    return usage.sink === null ? fieldSink(plainResult ? perElement : usage, fields) : usage;
  }
  const resultKind = ARRAY_RESULT_KIND[call.name];
  return resultKind ? usageOf(call.call, resultKind, depth + 1, context) : NONE;
}

/**
 * `M.find(q, cb)` runs the query at once, so `.lean()` cannot be chained after it: the fix turns it
 * into `M.find(q).lean().exec(cb)`, which mongoose runs the same way.
 */
function callbackLeanFix(call: t.CallExpression, callback: t.Node): { start: number; end: number; text: string } | null {
  const index = call.arguments.indexOf(callback as t.Expression);
  const before = index > 0 ? call.arguments[index - 1].end : call.callee.end;
  if (before == null || callback.start == null) return null;
  return { start: before, end: callback.start, text: index > 0 ? ').lean().exec(' : '().lean().exec(' };
}

/** `return User.find(q)` (not awaited) from a function that is not async: a query builder handed out. */
function isPlainFunctionReturn(end: NodePath): boolean {
  const parent = valueRoot(end).parentPath;
  const returned = parent?.isReturnStatement() || (parent?.isArrowFunctionExpression() && parent.node.body === valueRoot(end).node);
  if (!returned) return false;
  const fn = parent?.isArrowFunctionExpression() ? parent : parent?.getFunctionParent();
  return fn !== null && fn !== undefined && !(fn.node as t.Function).async && !isCallbackReturn(parent as NodePath);
}

/** The assumption a finding rests on when the query went through functions not read here. */
function assumedText(usage: Usage): string {
  const steps = [...new Set(usage.assumedSteps ?? [])];
  if (steps.length === 0) return '';
  return ` (assuming ${steps.map((step) => `${step}()`).join(' and ')} only ${steps.length === 1 ? 'adds' : 'add'} query steps)`;
}

/** A page no larger than this (a literal `.limit(n)`) is a short list: hydrating it costs little. */
const SHORT_LIST = 10;

/** `.limit(n)` / `{ limit: n }` with a literal n of at most SHORT_LIST. */
function isShortList(query: ModelQuery): boolean {
  const small = (node: t.Node | undefined): boolean => node?.type === 'NumericLiteral' && node.value <= SHORT_LIST;
  let link = query.chained.includes('limit') ? query.call.parentPath : null;
  for (; link; link = link.parentPath) {
    if (link.isCallExpression() && memberName(unwrapExpression(link.node.callee)) === 'limit') return small(link.node.arguments[0]);
    if (link.node === query.end.node) break;
  }
  return query.call.node.arguments.some((arg) => arg.type === 'ObjectExpression' && arg.properties.some((prop) =>
    prop.type === 'ObjectProperty' && !prop.computed && prop.key.type === 'Identifier' && prop.key.name === 'limit' && small(prop.value)));
}

/**
 * A list read (paged or not) whose documents the analysis followed to the end, outside start-up
 * (for documents only read field by field: where requests or messages reach it, not only a route that saves):
 * hydrating a list only to serialize it is waste the code alone proves (seed 004). A single
 * document, a short literal page, or a result handed to callers not read needs frequency.
 */
function isCertainListRead(query: ModelQuery, usage: Usage, hot: HotContext): boolean {
  if (query.resultKind !== 'array' || isShortList(query)) return false;
  const kind = hot.contextOf(query.call).kind;
  // Fields read one by one into the code's own structures (a cache, a menu) prove no response:
  // only where the analysis knows traffic reaches it; a loader's one pass (`loadRoles()`) is not.
  // A route that saves (POST, PUT, DELETE) runs when someone changes something: how often is not in the code.
  if (usage.fields !== undefined) return (kind === 'request' || kind === 'message') && !hot.contextOf(query.call).changesState;
  return kind !== 'startup' && kind !== 'signal';
}

export const mongooseMissingLean: RuleModule = {
  meta: {
    id: 'mongoose-missing-lean',
    description: 'Flags mongoose read queries whose results are only returned or serialized but are hydrated into full documents because `.lean()` is missing.',
    defaultSeverity: 'warning',
    incident: {
      seed: '004',
      summary: 'In a production incident, turning query results into mongoose documents (completeMany) took more than 2 s of CPU per task-list request; with .lean() the reads were at least 1.5 times faster.',
    },
    messages: {
      missingLean: '{{model}}.{{method}}() hydrates full mongoose documents that are only {{use}}{{where}}{{assumed}}; add .lean().{{matters}}',
      missingLeanPlainCopy: '{{model}}.{{method}}() hydrates full mongoose documents that are only {{use}}{{where}}{{assumed}}; add .lean() and drop the toObject()/toJSON() calls on them (lean results are plain objects already).{{matters}}',
    },
    fixable: true,
  },
  create(context) {
    // A test, a migration script or a CLI reads once, with data it chose: not a service's cost (rules/detectors/toolingFiles.ts).
    if (isToolingFile(context.filePath, context.project)) return { visitor: {} };
    const models = new ModelFinder(context);
    return {
      visitor: {
        CallExpression(path) {
          const query = modelQueryAt(path, models);
          if (query === null || query.lean || query.other !== null) return;
          let usage: Usage;
          if (query.then !== null) {
            const param = callbackParam(query.then, 0);
            if (param === null || param === 'none') return;
            usage = usageOfBinding(param, query.resultKind, 0, context);
          } else if (query.callback !== null) {
            // Model.find(q, function (err, docs) {...}) / query.exec((err, doc) => ...)
            const param = query.callback.get('params')[1];
            if (!param) return;
            usage = usageOfBinding(param, query.resultKind, 0, context);
          } else if (!query.chained.includes('exec') && queryVariableOf(query.end) !== null) {
            // let qry = M.find(q).skip(n); qry = sortQuery(qry); qry.find(cb): the query built in steps.
            usage = usageOfQueryValue(query.end, query.resultKind, 0, context);
          } else {
            const handedOut = !query.chained.includes('exec') && isPlainFunctionReturn(query.end);
            usage = usageOf(query.end, handedOut ? 'query' : query.resultKind, 0, context);
          }
          if (usage.documentUse || usage.sink === null) return;
          const end = path.node.end;
          if (end == null) return;
          const callbackInCall = query.callback !== null && query.chained.length === 0;
          // With toObject() calls on the documents, adding .lean() alone would break them: no fix offered.
          const fix = usage.plainCopy === true ? null : callbackInCall ? callbackLeanFix(path.node, query.callback!.node) : { start: end, end, text: '.lean()' };
          const base = {
            // Model.find(q, function (err, docs) {...}): the finding is the `Model.find` part, not the whole callback.
            node: callbackInCall ? path.node.callee : path.node,
            messageId: usage.plainCopy === true ? 'missingLeanPlainCopy' : 'missingLean',
            data: { model: modelLabel(query.model, context.source), method: query.method, use: usage.sink, where: '', assumed: assumedText(usage), matters: '' },
            fixes: fix === null ? [] : [{ title: 'Add .lean() to the query', edits: [fix] }],
          };
          // Hydrating one document or a short page costs microseconds unless it runs often: only a list
          // read followed to its end is shown from the code alone; the others need frequency (hints
          // until a profile shows them hot).
          const certain = usage.callersUnread !== true;
          context.report({
            ...base,
            when: (hot: HotContext) => certain && isCertainListRead(query, usage, hot),
            describe: (hot: HotContext) => ({ where: whereItRuns(hot.contextOf(path)) }),
          });
          context.report({
            ...base,
            evidence: 'frequency',
            when: (hot: HotContext) => !certain || !isCertainListRead(query, usage, hot),
            describe: (hot: HotContext) => ({
              where: whereItRuns(hot.contextOf(path)),
              matters: ' It matters when the read returns many documents or runs often.',
            }),
          });
        },
      },
    };
  },
};

export default mongooseMissingLean;
