/** objpack as an Eleventy plugin: `eleventyConfig.addPlugin(objpack, { /* objpack options *\/ })`. */
export { default, type EleventyAfterEvent, type EleventyConfigLike } from './eleventy-plugin.js';
export { defineConfig, type IntegrationOptions } from 'objpack';
