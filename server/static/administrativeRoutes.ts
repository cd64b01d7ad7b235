// Routes an administrator runs, read from how they are registered (issue 22: "code reached only from
// rarely-run routes is a hint until a profile measures it"). An install, a settings page, a set-up
// step or a route behind an admin guard runs when someone administers the service, not with its
// traffic: what costs only when it runs often (a small write, the environment a spawn copies) is not
// shown there on the code alone. Decided from the registration's structure — the words of its path,
// the guards before its handler — never from a file's or a package's name.
import type * as t from '@babel/types';
import { isPathLike, stringValue } from './registrationShapes';

/** Words of a route path that name administration or configuration of the service itself. */
const ADMIN_PATH_WORDS = new Set([
  'admin', 'administration', 'administrator', 'superuser', 'settings', 'setup', 'install', 'installer',
  'uninstall', 'config', 'configuration', 'configure', 'preferences', 'maintenance', 'onboarding',
]);

/** A guard's name that admits administrators only: `requireAdmin`, `auth.isAdmin`, `ensureSuperuser()`, `role('admin')`. */
const ADMIN_GUARD = /admin|superuser/i;

/** The words of a path's literal text: '/skServer/appstore/install-with-deps/:name' -> skserver, appstore, install, with, deps, name. */
function pathWords(text: string): string[] {
  return text.split(/[^A-Za-z0-9]+/).filter((word) => word !== '').map((word) => word.toLowerCase());
}

/** The literal text of a path argument (a template's fixed parts); null when the path is computed. */
function literalPaths(node: t.Node): string[] | null {
  if (node.type === 'StringLiteral') return [node.value];
  if (node.type === 'TemplateLiteral') return [node.quasis.map((quasi) => quasi.value.cooked ?? '').join('/')];
  if (node.type === 'ArrayExpression') {
    const out: string[] = [];
    for (const element of node.elements) {
      const texts = element === null || element.type === 'SpreadElement' ? null : literalPaths(element);
      if (texts === null) return null;
      out.push(...texts);
    }
    return out.length > 0 ? out : null;
  }
  return null;
}

/** Every path the route is registered for has a word that names administration. */
export function isAdministrativePath(node: t.Node): boolean {
  const texts = literalPaths(node);
  return texts !== null && texts.every(isAdministrativePathText);
}

/** A path given as text (`'GET /admin/users'` gives '/admin/users') that names administration. */
export function isAdministrativePathText(text: string): boolean {
  return pathWords(text).some((word) => ADMIN_PATH_WORDS.has(word));
}

/** A guard by its name or its argument: `requireAdmin`, `auth.admin`, `hasRole('admin')`. */
export function isAdminGuard(node: t.Node): boolean {
  switch (node.type) {
    case 'Identifier':
      return ADMIN_GUARD.test(node.name);
    case 'MemberExpression':
      return !node.computed && node.property.type === 'Identifier' && (ADMIN_GUARD.test(node.property.name) || isAdminGuard(node.object));
    case 'CallExpression':
      return isAdminGuard(node.callee) || node.arguments.some((arg) => ADMIN_GUARD.test(stringValue(arg) ?? ''));
    default:
      return false;
  }
}

/**
 * A route registration's arguments (`app.get(path, ...middleware, handler)`, `router.use(path, guard,
 * router)`): its path names administration, or a guard before the last handler admits administrators only.
 */
export function isAdministrativeRoute(args: readonly t.Node[]): boolean {
  const path = args.find((arg) => isPathLike(arg));
  if (path !== undefined && isAdministrativePath(path)) return true;
  const handlers = args.filter((arg) => !isPathLike(arg) && arg.type !== 'ObjectExpression');
  return handlers.slice(0, -1).some(isAdminGuard);
}

/** `@Get('admin/stats')`, `@Post('/settings')`: a route decorator whose path names administration. */
export function isAdministrativeDecorator(decorators: readonly t.Decorator[]): boolean {
  return decorators.some((decorator) => {
    const expression = decorator.expression;
    const first = expression.type === 'CallExpression' ? expression.arguments[0] : undefined;
    return first !== undefined && (first.type === 'StringLiteral' || first.type === 'TemplateLiteral') && isAdministrativePath(first);
  });
}
