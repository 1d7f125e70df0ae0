// Jest on Node 20 cannot `require()` an ES module, and NestJS 12 ships only ES modules. A few
// dependencies are still CommonJS and `require('@nestjs/common')` (e.g. @nestjs/throttler). For
// those requires only, this resolver hands out a shim that returns the very ES module instance
// the app imported (stashed by esm-instances.mjs), so decorators and DI tokens stay identical.
// Plain Node (npm start, dist/) needs none of this: it supports require(esm) itself.
const { join } = require('node:path');

const SHIMS = { '@nestjs/common': 'nestjs-common.cjs', '@nestjs/core': 'nestjs-core.cjs' };

module.exports = (request, options) => {
  if (SHIMS[request] && options.conditions && options.conditions.includes('require') && !options.conditions.includes('import')) {
    return join(__dirname, 'cjs-shims', SHIMS[request]);
  }
  return options.defaultResolver(request, options);
};
