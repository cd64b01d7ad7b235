// The function a call calls, as compilers write it: TypeScript and Babel emit `(0, m_1.f)(...)`
// for a call of an imported `f` (so that `this` is not the module). Rules pre-check a callee's
// shape before resolving it; they look at this instead of the sequence around it.
import type * as t from '@babel/types';

/** `(0, x.f)` -> `x.f`; any other callee as it is. */
export function compiledCallee(callee: t.Node): t.Node {
  let at = callee;
  for (let depth = 0; depth < 4; depth++) {
    if (at.type === 'ParenthesizedExpression') at = at.expression;
    else if (at.type === 'SequenceExpression' && at.expressions.length === 2 && at.expressions[0].type === 'NumericLiteral') at = at.expressions[1];
    else break;
  }
  return at;
}
