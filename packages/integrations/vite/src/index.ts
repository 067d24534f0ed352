/**
 * objpack for Vite and VitePress: `objpack()` is a Vite plugin that packages the client build's output;
 * `withObjpack(config)` wraps a VitePress config so the build packages the site once every page is written.
 */
export { objpack, objpack as default, type ObjpackVitePlugin, type ViteResolvedConfig } from './vite-plugin.js';
export { withObjpack, type VitePressConfigLike, type VitePressSiteConfig } from './vitepress.js';
export { defineConfig, type IntegrationOptions } from 'objpack';
