// A project facts collector: which exports of a project module are mongoose models, read from its
// top-level statements (through re-exports: `export *`, `module.exports = require('./user')`).
// The project index (server/static/projectIndex.ts) hands each module to it through rules/index.ts,
// so that the mongoose rules know `User` in `const { User } = require('./models')` is a model.
import type * as t from '@babel/types';
import type { ImportBinding, ProjectModule } from '../api';
import { isModelExpression, memberName, mongooseRoleOf, unwrapExpression } from './mongooseModels';

/** Export names of `module` bound to mongoose models ('default' for `module.exports =` / `export default`). */
export function mongooseModelExportsOf(module: ProjectModule): ReadonlySet<string> {
  return new ModuleExports(module).modelExports();
}

/** The model exports of one module, from its top-level statements. */
class ModuleExports {
  /** Top-level `const X = <init>` declarations, for `module.exports = { X }` and `export { X }`. */
  private readonly locals = new Map<string, t.Expression>();
  private readonly exports = new Set<string>();

  constructor(private readonly module: ProjectModule) {
    for (const statement of module.program.body) {
      const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
      if (declaration?.type !== 'VariableDeclaration') continue;
      for (const declarator of declaration.declarations) {
        if (declarator.id.type === 'Identifier' && declarator.init) this.locals.set(declarator.id.name, declarator.init);
      }
    }
  }

  modelExports(): ReadonlySet<string> {
    for (const statement of this.module.program.body) this.readStatement(statement);
    return this.exports;
  }

  private readStatement(statement: t.Statement): void {
    switch (statement.type) {
      case 'ExpressionStatement':
        this.readAssignment(statement.expression);
        break;
      case 'ExportDefaultDeclaration':
        if (this.isModel(statement.declaration, 0)) this.exports.add('default');
        break;
      case 'TSExportAssignment': // `export = model(...)`
        this.readModuleExports(statement.expression);
        break;
      case 'ExportNamedDeclaration':
        this.readNamedExport(statement);
        break;
      case 'ExportAllDeclaration': {
        const target = this.module.moduleAt(statement.source.value);
        for (const name of target?.mongooseModelExports ?? []) if (name !== 'default') this.exports.add(name);
        break;
      }
      default:
        break;
    }
  }

  private readNamedExport(statement: t.ExportNamedDeclaration): void {
    const { declaration } = statement;
    if (declaration?.type === 'VariableDeclaration') {
      for (const d of declaration.declarations) {
        if (d.id.type === 'Identifier' && d.init && this.isModel(d.init, 0)) this.exports.add(d.id.name);
      }
      return;
    }
    const from = statement.source ? this.module.moduleAt(statement.source.value) : null;
    for (const spec of statement.specifiers) {
      if (spec.type !== 'ExportSpecifier') continue;
      const exported = spec.exported.type === 'Identifier' ? spec.exported.name : spec.exported.value;
      const local = spec.local.name;
      const isModel = statement.source ? from?.mongooseModelExports.has(local) === true : this.isModel(spec.local, 0);
      if (isModel) this.exports.add(exported);
    }
  }

  /** `module.exports = ...`, `module.exports.X = ...`, `exports.X = ...`. */
  private readAssignment(expression: t.Expression): void {
    if (expression.type !== 'AssignmentExpression' || expression.operator !== '=') return;
    const left = expression.left;
    if (isModuleExports(left)) {
      this.readModuleExports(expression.right);
      return;
    }
    if (left.type !== 'MemberExpression') return;
    const name = memberName(left);
    const owner = unwrapExpression(left.object);
    const onExports = (owner.type === 'Identifier' && owner.name === 'exports') || isModuleExports(owner);
    if (name !== null && onExports && this.isModel(expression.right, 0)) this.exports.add(name);
  }

  private readModuleExports(value: t.Expression): void {
    const right = unwrapExpression(value);
    if (right.type === 'ObjectExpression') {
      for (const prop of right.properties) {
        if (prop.type === 'SpreadElement') {
          this.copyWholeModule(prop.argument, false);
        } else if (prop.type === 'ObjectProperty') {
          const key = !prop.computed && prop.key.type === 'Identifier' ? prop.key.name : prop.key.type === 'StringLiteral' ? prop.key.value : null;
          if (key !== null && this.isModel(prop.value, 0)) this.exports.add(key);
        }
      }
      return;
    }
    if (this.copyWholeModule(right, true)) return;
    if (this.isModel(right, 0)) this.exports.add('default');
  }

  /** `module.exports = require('./user')` re-exports everything, including the default. */
  private copyWholeModule(node: t.Node, withDefault: boolean): boolean {
    const specifier = this.module.requiredModule(unwrapExpression(node));
    if (specifier === null) return false;
    const target = this.module.moduleAt(specifier);
    for (const name of target?.mongooseModelExports ?? []) if (withDefault || name !== 'default') this.exports.add(name);
    return true;
  }

  /** Is a top-level value a model: a definition, a local bound to one, or an imported model? */
  private isModel(node: t.Node, depth: number): boolean {
    if (depth > 4) return false;
    const value = unwrapExpression(node);
    if (isModelExpression(value, (name) => mongooseRoleOf(this.module.importOf(name), name))) return true;
    const required = this.module.requiredModule(value);
    if (required !== null) return this.module.moduleAt(required)?.mongooseModelExports.has('default') === true;
    if (value.type === 'MemberExpression') {
      // require('./user').User
      const specifier = this.module.requiredModule(unwrapExpression(value.object));
      const member = memberName(value);
      if (specifier !== null && member !== null) return this.module.moduleAt(specifier)?.mongooseModelExports.has(member) === true;
      return false;
    }
    if (value.type !== 'Identifier') return false;
    const imported = this.module.importOf(value.name);
    if (imported) return this.isImportedModel(imported);
    const init = this.locals.get(value.name);
    return init !== undefined && this.isModel(init, depth + 1);
  }

  private isImportedModel(binding: ImportBinding): boolean {
    const target = this.module.moduleAt(binding.source);
    return target?.mongooseModelExports.has(binding.imported) === true;
  }
}

function isModuleExports(node: t.Node): boolean {
  const target = unwrapExpression(node);
  if (target.type !== 'MemberExpression' || memberName(target) !== 'exports') return false;
  const object = unwrapExpression(target.object);
  return object.type === 'Identifier' && object.name === 'module';
}
