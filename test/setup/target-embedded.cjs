process.env.E2E_TARGET = 'embedded';
