/**
 * Spec text round-trips through the generated TypeScript at the AST level:
 * the compiler (ts-morph) reads back every property name, enum literal and
 * name union exactly as the spec wrote it. Regex checks elsewhere look at the
 * text; this one asks the parser, so an escape that merely looks right fails.
 */
import path from 'node:path';
import { Node, Project, type TypeNode } from 'ts-morph';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IRSpec, JsonSchema } from '../../generator/ir.js';
import { loadSpec } from '../../generator/load.js';
import { normalizeSpec } from '../../generator/normalize.js';
import { REPO } from './helpers.js';

const FIXTURES = ['escaping', 'example', 'schema-encoding', 'flat-only'];

/** The string literal values of a union (or single literal) type node, in order. */
function literalValues(node: TypeNode | undefined): unknown[] {
  if (node === undefined) return [];
  if (Node.isParenthesizedTypeNode(node)) return literalValues(node.getTypeNode());
  if (Node.isUnionTypeNode(node)) return node.getTypeNodes().flatMap((n) => literalValues(n));
  if (Node.isLiteralTypeNode(node)) {
    const lit = node.getLiteral();
    if (Node.isStringLiteral(lit) || Node.isNumericLiteral(lit)) return [lit.getLiteralValue()];
  }
  return [];
}

describe.each(FIXTURES)('fixture %s: generated types read back through the TypeScript parser', (fixture) => {
  let ir: IRSpec;
  let project: Project;
  const dir = path.join(REPO, 'test/fixtures', fixture, 'expected');

  beforeAll(async () => {
    const loaded = await loadSpec(`test/fixtures/${fixture}/spec.yaml`, { cwd: REPO });
    if (!loaded.ok) throw new Error(`fixture ${fixture} does not load`);
    ir = normalizeSpec(loaded.spec);
    project = new Project({ skipAddingFilesFromTsConfig: true, compilerOptions: { strict: true } });
    project.addSourceFileAtPath(path.join(dir, 'types.gen.ts'));
  });

  it('each argument interface has exactly the spec property names, with the spec requiredness and enum literals', () => {
    const file = project.getSourceFileOrThrow(path.join(dir, 'types.gen.ts'));
    for (const tool of ir.tools) {
      const decl = file.getInterface(tool.typeName) ?? file.getTypeAlias(tool.typeName);
      expect(decl, tool.typeName).toBeDefined();
      if (decl === undefined || !Node.isInterfaceDeclaration(decl)) continue;
      const schemaProps = (tool.parameters['properties'] ?? {}) as Record<string, JsonSchema>;
      const required = new Set((tool.parameters['required'] ?? []) as string[]);
      const members = decl.getProperties();
      // The parser's view of each name: the literal value for quoted names, the identifier text otherwise.
      const names = members.map((m) => {
        const n = m.getNameNode();
        return Node.isStringLiteral(n) ? n.getLiteralValue() : n.getText();
      });
      expect(names, tool.name).toEqual(Object.keys(schemaProps));
      members.forEach((member, i) => {
        const name = names[i]!;
        const schema = schemaProps[name]!;
        expect(member.hasQuestionToken(), `${tool.name}.${name} optional`).toBe(!required.has(name));
        const en = schema['enum'];
        if (Array.isArray(en) && en.every((v) => typeof v === 'string')) {
          expect(literalValues(member.getTypeNode()), `${tool.name}.${name} enum`).toEqual(en);
        }
      });
    }
  });

  it('the name unions hold every tool, namespace, toolkit and policy name exactly', () => {
    const file = project.getSourceFileOrThrow(path.join(dir, 'types.gen.ts'));
    const union = (alias: string) => literalValues(file.getTypeAliasOrThrow(alias).getTypeNode());
    expect(union('ToolName')).toEqual(ir.tools.map((t) => t.name));
    const ns = ir.namespaces.map((n) => n.name);
    const kits = ir.toolkits.map((k) => k.name);
    const policies = ir.policies.map((p) => p.name);
    // An empty set is `never`: no literals to read back.
    expect(union('NamespaceName')).toEqual(ns);
    expect(union('ToolkitName')).toEqual(kits);
    expect(union('PolicyName')).toEqual(policies);
  });

  it('parses without syntax errors', () => {
    const file = project.getSourceFileOrThrow(path.join(dir, 'types.gen.ts'));
    // A parse error would show up as syntactic diagnostics: escaping gone wrong breaks the parse first.
    const diagnostics = project.getProgram().getSyntacticDiagnostics(file);
    expect(diagnostics.map((d) => d.getMessageText())).toEqual([]);
  });
});
