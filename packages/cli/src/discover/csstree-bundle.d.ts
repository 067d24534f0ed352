/** css-tree's one-file ESM build (`css-tree/dist/csstree.esm`): the same API as the package root. */
declare module 'css-tree/dist/csstree.esm' {
  export * from 'css-tree';
}
