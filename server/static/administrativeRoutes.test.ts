import { strict as assert } from 'node:assert';
import { parseExpression } from '@babel/parser';
import type * as t from '@babel/types';
import { isAdminGuard, isAdministrativePath, isAdministrativeRoute } from './administrativeRoutes';

/** The arguments of a registration call written as code: `app.get('/x', guard, handler)`. */
function argsOf(call: string): t.Node[] {
  const node = parseExpression(call, { plugins: ['typescript'] });
  assert.equal(node.type, 'CallExpression');
  return (node as t.CallExpression).arguments as t.Node[];
}

describe('administrativeRoutes', () => {
  it('a path with a word that names administration, configuration, set-up or an install is administrative', () => {
    for (const path of ["'/admin/users'", "'/api/settings'", "'/setup'", "`${PREFIX}/appstore/install/:name/:version`",
      "'/skServer/appstore/install-with-deps'", "'/plugins/:id/config'", "['/api/preferences', '/preferences']", "'/onboarding/upload'"]) {
      assert.equal(isAdministrativePath(parseExpression(path)), true, path);
    }
  });

  it('paths of the traffic are not, nor words that only contain an admin word, nor a computed path', () => {
    for (const path of ["'/api/orders'", "'/p/:pad/export/:type'", "'/installments'",
      "'/administrators-club'", "['/admin', '/orders']", 'routePath', "'/adminer'"]) {
      assert.equal(isAdministrativePath(parseExpression(path)), false, path);
    }
  });

  it('a guard before the handler that admits administrators only makes the route administrative; the handler itself does not', () => {
    assert.equal(isAdministrativeRoute(argsOf("router.get('/diagnostics', requireAdmin, (req, res) => {})")), true);
    assert.equal(isAdministrativeRoute(argsOf("app.post('/users/:id/ban', auth.isAdmin, ctl.ban)")), true);
    assert.equal(isAdministrativeRoute(argsOf("app.get('/reports', hasRole('admin'), reports.list)")), true);
    assert.equal(isAdministrativeRoute(argsOf("app.use('/ops', ensureSuperuser(), opsRouter)")), true);
    assert.equal(isAdministrativeRoute(argsOf("app.get('/orders', requireLogin, adminStats)")), false);
    assert.equal(isAdministrativeRoute(argsOf("app.get('/orders', (req, res) => {})")), false);
    assert.equal(isAdminGuard(parseExpression('authenticate')), false);
  });
});
