/** objpack as an Astro integration: `integrations: [objpack()]`, last, in astro.config. */
export {
  objpack,
  objpack as default,
  type AstroConfigLike,
  type ObjpackAstroIntegration,
} from './astro-integration.js';
export { urlStyle, type AstroUrlConfig } from './url-style.js';
export { defineConfig, type IntegrationOptions } from 'objpack';
