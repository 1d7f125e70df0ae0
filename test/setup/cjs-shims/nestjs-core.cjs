if (!globalThis.__esmNestjsCore) throw new Error('test/setup/esm-instances.mjs did not run');
module.exports = globalThis.__esmNestjsCore;
