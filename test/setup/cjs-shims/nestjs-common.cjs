if (!globalThis.__esmNestjsCommon) throw new Error('test/setup/esm-instances.mjs did not run');
module.exports = globalThis.__esmNestjsCommon;
