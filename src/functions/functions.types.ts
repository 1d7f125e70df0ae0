import type { Readable } from 'node:stream';
import type { CodeSource } from './code-folder.js';

/** A deployment whose code runs as an instance. */
export interface FunctionDeployment {
  /** The deployment's id: its instance, its code folder and its logs are keyed by it. */
  id: string;
  /** The entry's path among the files (`/_server/index.js`). */
  entry: string;
  /** The function's files (the entry's folder) and where their bytes are. */
  code: CodeSource;
  /** The `env` its fetch gets: the deployment's variables, PLATFORM_URL and PLATFORM_TOKEN. */
  env: Readonly<Record<string, string>>;
}

/** A visitor's request, as the site's route has it. */
export interface FunctionRequest {
  method: string;
  /** The URL on the origin the visitor used (`https://recipe-box.apps.example.com/api/notes?x=1`). */
  url: string;
  /** The visitor's headers (Node's `rawHeaders`). */
  rawHeaders: readonly string[];
  /** The body, streamed (null: none). */
  body: Readable | null;
  /** The visitor's address (`x-real-ip`), never kept. */
  clientIp: string;
}

/** The answer: the function's (streamed), or the platform's page (413, 502, 503, 504). */
export interface FunctionResponse {
  status: number;
  /** Flat header list (name, value, name, value…), repeated names (Set-Cookie) kept. */
  headers: string[];
  body: Readable;
}

export type FunctionLogLevel = 'debug' | 'info' | 'warn' | 'error' | 'request' | 'system';

/** One line of a deployment's logs. */
export interface FunctionLogLine {
  at: Date;
  level: FunctionLogLevel;
  message: string;
}

/** Where the lines go (storage and the logs API come with the deploy wiring). */
export interface FunctionLogSink {
  onLog(deploymentId: string, line: FunctionLogLine): void;
}

/** The deploy-time load check's answer. */
export type FunctionCheck = { ok: true } | { ok: false; message: string };
