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
    let interfaces = 0;
    let enums = 0;
    for (const tool of ir.tools) {
      const decl = file.getInterface(tool.typeName) ?? file.getTypeAlias(tool.typeName);
      expect(decl, tool.typeName).toBeDefined();
      if (decl === undefined) continue;
      if (!Node.isInterfaceDeclaration(decl)) {
        // A tool whose schema equals an earlier tool's shares that tool's interface through an
        // alias (`type StatFileArgs = ReadFileArgs`): hold the alias to exactly that, so the
        // interface checked below speaks for this tool too.
        const target = decl.getTypeNodeOrThrow().getText();
        const owner = ir.tools.find((t) => t.typeName === target);
        expect(owner, `${tool.typeName} aliases ${target}, which is no tool's argument type`).toBeDefined();
        expect(file.getInterface(target), `${target} is an interface`).toBeDefined();
        expect(tool.parameters, `${tool.typeName} = ${target}`).toEqual(owner!.parameters);
        continue;
      }
      interfaces++;
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
          enums++;
          expect(literalValues(member.getTypeNode()), `${tool.name}.${name} enum`).toEqual(en);
        }
      });
    }
    // The loop must have looked at something: every fixture has argument interfaces, and the
    // string enums the spec declares (counted from the IR, not from the output) were all read back.
    expect(interfaces).toBeGreaterThan(0);
    const specEnums = ir.tools
      // An alias's properties are its owner's: count each distinct schema once.
      .filter((t, i) => ir.tools.findIndex((u) => JSON.stringify(u.parameters) === JSON.stringify(t.parameters)) === i)
      .flatMap((t) => Object.values((t.parameters['properties'] ?? {}) as Record<string, JsonSchema>))
      .filter((p) => Array.isArray(p['enum']) && (p['enum'] as unknown[]).every((v) => typeof v === 'string')).length;
    expect(enums).toBe(specEnums);
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
