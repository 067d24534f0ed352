import { describe } from 'vitest';
import { catalogTests } from '../../../scripts/catalog-tests.mjs';
import { codesReference } from './errors.js';

describe("@objpack/format's diagnostics catalog", () => {
  catalogTests('format', codesReference(), 'OBJP_', ['errors.ts']);
});
