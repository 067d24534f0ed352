import type { Node as JsonNode } from 'jsonc-parser';

/**
 * The node of the value at `path` (object keys, array indexes) in a jsonc-parser tree; of a key written twice,
 * the last, which JSON.parse (and so firebase-tools) keeps.
 */
export function valueAt(tree: JsonNode, path: ReadonlyArray<string | number>): JsonNode | undefined {
  let node: JsonNode | undefined = tree;
  for (const key of path) {
    const children: JsonNode[] = node?.children ?? [];
    if (typeof key === 'number') node = node?.type === 'array' ? children[key] : undefined;
    else {
      const props = node?.type === 'object' ? children.filter((p) => p.children?.[0]?.value === key) : [];
      node = props[props.length - 1]?.children?.[1];
    }
    if (!node) return undefined;
  }
  return node;
}
