/** objpack as a Docusaurus plugin: `plugins: [['@objpack/docusaurus', { /* objpack options *\/ }]]`. */
export { default, urlStyle, type ObjpackDocusaurusPlugin, type PostBuildProps } from './docusaurus-plugin.js';
export { localesToBuild, outputRoot } from './locales.js';
export { defineConfig, type IntegrationOptions } from 'objpack';
