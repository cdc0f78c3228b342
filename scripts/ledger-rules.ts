/**
@module
The rule ids a `LedgerError` can carry, read from the ledger's source (`packages/client/src/ledger`, tests
aside) with Babel's parser, and the rule ids docs/protocol-checks.md#ledger lists: `ledger-rules.test.ts`
holds the two lists to each other. A rule is found where the code names one: a `rule` member of the options a
`new LedgerError(…)` or a `refusal(…)` (ledger/refusal-hints.ts) is given, the argument of a function's
parameter named `rule`, a variable named `rule`, and the string lists the decoder closes its rules with (a
constant named `…Rules`). A template literal reads as a pattern, each `${…}` as `<name>`
(`start-from-<status>`).
*/
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@babel/parser';
import { repositoryRoot, sourceFiles } from './source-facts.js';

type Node = { type: string } & Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

function children(node: Node): Node[] {
  const found: Node[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key.endsWith('Comments')) {
      continue;
    }
    for (const child of Array.isArray(value) ? value : [value]) {
      if (isNode(child)) {
        found.push(child);
      }
    }
  }
  return found;
}

function walk(node: Node, visit: (node: Node) => void): void {
  visit(node);
  for (const child of children(node)) {
    walk(child, visit);
  }
}

function nameOf(node: unknown): string | undefined {
  if (!isNode(node)) {
    return undefined;
  }
  if (node.type === 'Identifier' && typeof node['name'] === 'string') {
    return node['name'];
  }
  if (node.type === 'MemberExpression') {
    return nameOf(node['property']);
  }
  if (node.type === 'TSAsExpression' || node.type === 'TSNonNullExpression') {
    return nameOf(node['expression']);
  }
  return undefined;
}

/**
The rule ids an expression can give: its string literals, both arms of a choice, the fallback of a `??` or
`||`, a template literal as a pattern.
*/
function rulesIn(node: unknown): string[] {
  if (!isNode(node)) {
    return [];
  }
  switch (node.type) {
    case 'StringLiteral':
      return [node['value'] as string];
    case 'TemplateLiteral': {
      const quasis = node['quasis'] as Node[];
      const expressions = node['expressions'] as Node[];
      let text = '';
      for (const [index, quasi] of quasis.entries()) {
        text += (quasi['value'] as { cooked: string }).cooked;
        if (index < expressions.length) {
          text += `<${nameOf(expressions[index]) ?? 'value'}>`;
        }
      }
      return [text];
    }
    case 'ConditionalExpression':
      return [...rulesIn(node['consequent']), ...rulesIn(node['alternate'])];
    case 'LogicalExpression':
      return rulesIn(node['right']);
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
      return rulesIn(node['expression']);
    case 'ArrayExpression':
      return (node['elements'] as unknown[]).flatMap(rulesIn);
    default:
      return [];
  }
}

/**
The `rule` members of the object literals inside a `new LedgerError`'s (or a `refusal`'s) options, wherever a
choice puts them.
*/
function optionRules(node: unknown): string[] {
  if (!isNode(node)) {
    return [];
  }
  if (node.type === 'ObjectExpression') {
    return (node['properties'] as Node[]).flatMap((property) =>
      property.type === 'ObjectProperty' && nameOf(property['key']) === 'rule'
        ? rulesIn(property['value'])
        : [],
    );
  }
  if (node.type === 'ConditionalExpression') {
    return [...optionRules(node['consequent']), ...optionRules(node['alternate'])];
  }
  return [];
}

/** The parameters of a function, by name. */
function parameterNames(node: Node): (string | undefined)[] {
  return (node['params'] as Node[]).map((parameter) =>
    nameOf(parameter.type === 'AssignmentPattern' ? parameter['left'] : parameter),
  );
}

/**
What one source gives: its rule ids, the functions that take a `rule` (name and position), its calls, and the
reasons of the errors it makes without options.
*/
export type RuleFacts = {
  readonly rules: string[];
  readonly ruleParameters: Map<string, number>;
  readonly calls: { readonly callee: string; readonly arguments: readonly Node[] }[];
  readonly bareReasons: string[];
};

/** Reads the rule facts of one source text. */
export function ruleFacts(text: string): RuleFacts {
  const ast = parse(text, { sourceType: 'module', plugins: ['typescript'] }) as unknown as Node;
  const facts: RuleFacts = { rules: [], ruleParameters: new Map(), calls: [], bareReasons: [] };
  walk(ast['program'] as Node, (node) => {
    // `refusal(…)` (ledger/refusal-hints.ts) makes a LedgerError with the same arguments, and its hint.
    if (
      (node.type === 'NewExpression' && nameOf(node['callee']) === 'LedgerError') ||
      (node.type === 'CallExpression' && nameOf(node['callee']) === 'refusal')
    ) {
      const [reason, options] = node['arguments'] as Node[];
      facts.rules.push(...optionRules(options));
      if (options === undefined && reason?.type === 'StringLiteral') {
        facts.bareReasons.push(reason['value'] as string);
      }
    }
    if (node.type === 'CallExpression') {
      const callee = nameOf(node['callee']);
      if (callee !== undefined) {
        facts.calls.push({ callee, arguments: node['arguments'] as Node[] });
      }
    }
    if (node.type === 'VariableDeclarator') {
      const name = nameOf(node['id']);
      const init = node['init'];
      if (name === 'rule' || name?.endsWith('Rules')) {
        facts.rules.push(...rulesIn(init));
      }
      if (name !== undefined && isNode(init) && init.type === 'ArrowFunctionExpression') {
        const position = parameterNames(init).indexOf('rule');
        if (position !== -1) {
          facts.ruleParameters.set(name, position);
        }
      }
    }
    if (node.type === 'FunctionDeclaration') {
      const name = nameOf(node['id']);
      const position = parameterNames(node).indexOf('rule');
      if (name !== undefined && position !== -1) {
        facts.ruleParameters.set(name, position);
      }
    }
  });
  return facts;
}

/**
The rule ids of several sources: their own, and the arguments their calls pass to any of their functions'
`rule` parameters.
*/
export function rulesOf(texts: readonly string[]): { rules: Set<string>; bareReasons: Set<string> } {
  const facts = texts.map(ruleFacts);
  const parameters = new Map(facts.flatMap((fact) => [...fact.ruleParameters]));
  const rules = new Set(facts.flatMap((fact) => fact.rules));
  for (const { callee, arguments: given } of facts.flatMap((fact) => fact.calls)) {
    const position = parameters.get(callee);
    if (position !== undefined) {
      for (const rule of rulesIn(given[position])) {
        rules.add(rule);
      }
    }
  }
  return { rules, bareReasons: new Set(facts.flatMap((fact) => fact.bareReasons)) };
}

/**
The rule ids the ledger's source can give a `LedgerError`, and the reasons of those it makes without a rule.
*/
export function ledgerCodeRules(): { rules: Set<string>; bareReasons: Set<string> } {
  const texts = sourceFiles(['packages/client/src/ledger']).map((file) =>
    readFileSync(join(repositoryRoot, file.path), 'utf8'),
  );
  return rulesOf(texts);
}

/**
The rule ids a document's `## Ledger` section lists: the first cell of each table row, written ``
`ledger.<rule>` ``.
*/
export function documentedRules(markdown: string): string[] {
  const start = markdown.indexOf('\n## Ledger\n');
  if (start === -1) {
    return [];
  }
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| `ledger\.([^`]+)` +\|/gm)].map((match) => match[1] as string);
}

/** The rule ids docs/protocol-checks.md#ledger lists. */
export function ledgerDocumentedRules(): string[] {
  return documentedRules(readFileSync(join(repositoryRoot, 'docs', 'protocol-checks.md'), 'utf8'));
}
