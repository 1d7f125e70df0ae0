import { listenError, StartupError, startupErrorLine } from './startup-errors.js';

describe('startupErrorLine', () => {
  it("is a StartupError's own message", () => {
    expect(startupErrorLine(new StartupError('Port 3000 is in use: stop the other process or set PORT to another port'))).toBe(
      'Port 3000 is in use: stop the other process or set PORT to another port',
    );
  });

  it('names the address and the setting of a connection the start could not make', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 5433 });
    expect(startupErrorLine(refused, { DATABASE_URL: 'postgresql://u@127.0.0.1:5433/db' })).toBe(
      'Cannot connect to 127.0.0.1:5433 (DATABASE_URL): connection refused',
    );
    const defaultPort = Object.assign(new Error('x'), { code: 'ECONNREFUSED', address: '10.0.0.1', port: 5432 });
    expect(startupErrorLine(defaultPort, { DATABASE_URL: 'postgres://db.internal/app' })).toBe(
      'Cannot connect to 10.0.0.1:5432 (DATABASE_URL): connection refused',
    );
    const unknownHost = Object.assign(new Error('getaddrinfo ENOTFOUND db'), { code: 'ENOTFOUND', address: 'db' });
    expect(startupErrorLine(unknownHost, {})).toBe('Cannot connect to db: unknown host');
  });

  it("is any other error's first line", () => {
    expect(startupErrorLine(new Error('password authentication failed for user "x"\n    at somewhere'))).toBe(
      'Failed to start: password authentication failed for user "x"',
    );
    expect(startupErrorLine('a string')).toBe('Failed to start: a string');
  });
});

describe('listenError', () => {
  const config = { PORT: 80, HOST: '10.9.8.7' };
  const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

  it('names the setting to change for each usual failure to bind', () => {
    expect(listenError(failure('EADDRINUSE'), config)).toEqual(new StartupError('Port 80 is in use: stop the other process or set PORT to another port'));
    expect(listenError(failure('EACCES'), config)).toEqual(new StartupError('Port 80 needs privileges this process lacks: set PORT to 1024 or above'));
    expect(listenError(failure('EADDRNOTAVAIL'), config)).toEqual(
      new StartupError('HOST 10.9.8.7 is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all'),
    );
  });

  it('leaves any other error as it is', () => {
    const other = failure('EMFILE');
    expect(listenError(other, config)).toBe(other);
  });
});
