// Adapts the @nestjs/swagger compiler plugin (ESM, `export default (program, options)`) to the
// shape ts-jest expects of an AST transformer (CommonJS `{ name, version, factory }`), so specs
// see the same OpenAPI metadata as scripts/build.mjs.
const plugin = require('@nestjs/swagger/plugin');
const before = (options, program) => (plugin.default ?? plugin)(program, options);

module.exports = {
  name: 'nestjs-swagger-plugin',
  version: '1',
  factory: (tsCompiler, options) => before(options, tsCompiler.program),
};
