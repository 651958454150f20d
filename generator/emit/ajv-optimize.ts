/**
 * ajv's code optimizer, made linear. ajv generates each validator as a tree
 * of code nodes and, before printing it, runs one optimization pass
 * (`CodeGen.optimize`): drop empty nodes, then drop declarations nobody reads
 * and inline constants read once. To know what is read it asks the root for
 * `names`, a getter every node implements by building a fresh object and
 * copying its children's counts into it, so each name is copied once per
 * level above it: time and garbage grow with the tree's size times its
 * depth. On toolroute's schemas that getter was about 40 % of ajv's code
 * generation (about a sixth of a 1,000-tool codegen).
 *
 * `withLinearNames(fn)` runs `fn` with `CodeGen.prototype.optimize` replaced
 * by the same pass whose root counts are summed into one object by a single
 * walk. The counts are the same numbers (each node kind's own expressions,
 * exactly as its `names` getter reads them), so the pass removes and inlines
 * exactly what ajv's does and the code is byte for byte ajv's:
 * test/generator/ajv-optimize.test.ts compares the two on the JSON Schema
 * Test Suite, the bench templates and the fixtures. The node classes are not
 * exported by ajv; they are read off a small tree built through CodeGen's
 * public methods, and a node of any other class (a later ajv) is counted by
 * its own `names` getter, which is always right, only slower. If the probe
 * does not find every kind, ajv's own `optimize` stays. The replacement lives
 * only while `fn` runs (it is synchronous), so no other ajv user in the
 * process ever sees it.
 */
import * as codegen from 'ajv/dist/compile/codegen/index.js';

/** A code expression as ajv keeps it: a `Name`, a `_Code` (its `names` cached on it), or a plain value. */
type Expr = unknown;
type Counts = Record<string, number>;
interface CodeNode {
  readonly constructor: unknown;
  readonly nodes?: CodeNode[];
  readonly names: Counts;
  readonly else?: CodeNode;
  readonly catch?: CodeNode;
  readonly finally?: CodeNode;
  readonly rhs?: Expr;
  readonly lhs?: Expr;
  readonly error?: Expr;
  readonly code?: Expr;
  readonly condition?: Expr;
  readonly iteration?: Expr;
  readonly iterable?: Expr;
  readonly from?: Expr;
  readonly to?: Expr;
  optimizeNodes(): unknown;
  optimizeNames(names: Counts, constants: unknown): unknown;
}
interface CodeGenInternals {
  readonly _root: CodeNode;
  readonly _constants: unknown;
}

/** The node kinds and how each one's `names` getter reads its own expressions (besides its children). */
const KINDS = ['Root', 'Def', 'Assign', 'AssignOp', 'Label', 'Break', 'Throw', 'AnyCode', 'If', 'Else', 'ForLoop', 'ForRange', 'ForIter', 'Func', 'Return', 'Try', 'Catch', 'Finally'] as const;
type Kind = (typeof KINDS)[number];

/** `Name` and `_CodeOrName` are ajv's public classes (its code.ts); `names` of an expression is counted only for those, as ajv's `addExprNames` does. */
const { Name } = codegen;
const CodeOrName = Object.getPrototypeOf(Name) as abstract new (...args: never[]) => { readonly names: Counts };

/** Each node class found by the probe, by kind; null when the probe did not find all of them. */
const kindOf: Map<unknown, Kind> | null = probeKinds();

function probeKinds(): Map<unknown, Kind> | null {
  try {
    const gen = new codegen.CodeGen(new codegen.ValueScope({ scope: {} }), {});
    const x = gen.name('x');
    gen.const('a', codegen._`1`);
    gen.assign(x, codegen._`2`);
    gen.add(x, codegen._`3`);
    gen.label(x);
    gen.break();
    gen.throw(codegen._`e`);
    gen.code(codegen._`c`);
    gen.if(codegen._`p`).elseIf(codegen._`q`).else().endIf();
    gen.for(codegen._`;;`).endFor();
    gen.forRange('i', 0, 1, () => {});
    gen.forOf('v', x, () => {});
    gen.func(x, codegen.nil, false, () => {
      gen.return(codegen._`1`);
    });
    gen.try(() => {}, () => {}, () => {});
    // The classes, named as ajv names them (dist/compile/codegen/index.js; its sources are not minified).
    const found = new Map<unknown, Kind>();
    const visit = (n: CodeNode | undefined): void => {
      if (n === undefined) return;
      const name = (n.constructor as { name?: unknown }).name;
      if (typeof name === 'string' && (KINDS as readonly string[]).includes(name)) found.set(n.constructor, name as Kind);
      for (const c of n.nodes ?? []) visit(c);
      visit(n.else);
      visit(n.catch);
      visit(n.finally);
    };
    visit((gen as unknown as CodeGenInternals)._root);
    return found.size === KINDS.length ? found : null;
  } catch {
    return null;
  }
}

/** Adds one counts object into `into`, as ajv's `addNames` does. */
function addCounts(into: Counts, from: Counts | undefined): void {
  for (const n in from) into[n] = (into[n] || 0) + (from[n] || 0);
}

/** ajv's `_Code` (not exported by name: `nil` is one). */
const Code = Object.getPrototypeOf(codegen.nil).constructor as abstract new (...args: never[]) => { readonly _items: readonly unknown[]; readonly _names?: Counts };

/**
 * An expression's names, as ajv's `addExprNames`: only a Name or a _Code has
 * any. A _Code's `names` getter counts the Names among its items and caches
 * the object on it; here they are counted straight into `into` (the cached
 * object when there is one, so the answer is the getter's), which spares an
 * object per expression.
 */
function addExpr(into: Counts, e: Expr): void {
  if (e instanceof Name) into[e.str] = (into[e.str] || 0) + 1;
  else if (e instanceof Code && e._names === undefined) {
    const items = e._items;
    for (let i = 0; i < items.length; i++) {
      const c = items[i];
      if (c instanceof Name) into[c.str] = (into[c.str] || 0) + 1;
    }
  } else if (e instanceof CodeOrName) addCounts(into, e.names);
}

/** `x.names` added in, where ajv's getter reads it unconditionally (`addNames(names, x.names)`): the same as `addExpr` for a Name or a _Code, and whatever `.names` holds for anything else. */
function addNamesOf(into: Counts, x: Expr): void {
  if (x instanceof CodeOrName) addExpr(into, x);
  else addCounts(into, (x as { names?: Counts } | undefined)?.names);
}

/** Adds `node.names` into `into` without building an object per node. */
function count(node: CodeNode, into: Counts, kinds: Map<unknown, Kind>): void {
  const kind = kinds.get(node.constructor);
  switch (kind) {
    case undefined:
      addCounts(into, node.names);
      return;
    case 'Def':
      addExpr(into, node.rhs);
      return;
    case 'Assign':
    case 'AssignOp':
      if (!(node.lhs instanceof Name)) addNamesOf(into, node.lhs);
      addExpr(into, node.rhs);
      return;
    case 'Label':
    case 'Break':
      return;
    case 'Throw':
      addNamesOf(into, node.error);
      return;
    case 'AnyCode':
      addExpr(into, node.code);
      return;
    default:
      break;
  }
  for (const child of node.nodes ?? []) count(child, into, kinds);
  switch (kind) {
    case 'If':
      addExpr(into, node.condition);
      if (node.else) count(node.else, into, kinds);
      return;
    case 'ForLoop':
      addNamesOf(into, node.iteration);
      return;
    case 'ForRange':
      addExpr(into, node.from);
      addExpr(into, node.to);
      return;
    case 'ForIter':
      addNamesOf(into, node.iterable);
      return;
    case 'Try':
      if (node.catch) count(node.catch, into, kinds);
      if (node.finally) count(node.finally, into, kinds);
      return;
    default:
      return; // Root, Else, Func, Return, Catch, Finally: their children only
  }
}

/**
 * The counts `root.names` gives, summed in one walk (exported for the test
 * that holds it to ajv's getter).
 *
 * @example
 * linearNames(root); // { data: 3, valid0: 2, … }, equal to root.names
 */
export function linearNames(root: object): Counts {
  const into: Counts = {};
  if (kindOf === null) addCounts(into, (root as CodeNode).names);
  else count(root as CodeNode, into, kindOf);
  return into;
}

/** Whether the linear pass is in use (false when the probe failed: ajv's own pass then runs). */
export const LINEAR_NAMES_AVAILABLE: boolean = kindOf !== null;

/**
 * Runs `fn` (synchronous) with ajv's optimize pass computing its root counts
 * in one walk; the code ajv generates is the same, byte for byte.
 *
 * @example
 * const code = withLinearNames(() => standaloneCode(ajv, refs));
 */
export function withLinearNames<T>(fn: () => T): T {
  if (kindOf === null) return fn();
  const proto = codegen.CodeGen.prototype as unknown as { optimize(n?: number): void };
  const original = proto.optimize;
  // ajv's own loop (`while (n-- > 0)`, n = code.optimize: true counts as 1), with only the counting replaced.
  proto.optimize = function optimize(this: CodeGenInternals, n: number | boolean = 1) {
    let passes = n as number;
    while (passes-- > 0) {
      this._root.optimizeNodes();
      this._root.optimizeNames(linearNames(this._root), this._constants);
    }
  };
  try {
    return fn();
  } finally {
    proto.optimize = original;
  }
}
