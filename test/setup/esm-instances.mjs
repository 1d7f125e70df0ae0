// See resolver.cjs: CommonJS dependencies get these exact ES module instances.
import * as common from '@nestjs/common';
import * as core from '@nestjs/core';

globalThis.__esmNestjsCommon = common;
globalThis.__esmNestjsCore = core;
