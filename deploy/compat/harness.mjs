// Shared harness of the compatibility scripts: loads the UNMODIFIED official client, records every HTTP
// exchange it makes through observing axios interceptors, and runs named steps that print
//   PASS <step>[ (note)]
//   FAIL <step>: <reason incl. HTTP status and body of the last exchange>
//
// Env:
//   BASE_URL        default http://localhost:8080 (the client appends /new/v2.0/...)
//   API_KEY         required (sent by the client as header x-api-key)
//   VERBOSE=1       print every HTTP exchange the client made
//   USE_EVENT_POSITION=1  pass the last write's X-Event-Position to reads through the client's
//                   documented per-call option `{ headers }` (the client never returns response
//                   headers, so the value is taken from the observing interceptor below)

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const clientEntry = require.resolve("@cognigy/rest-api-client");
const { RestAPIClient } = require(clientEntry);
const clientVersion = require("@cognigy/rest-api-client/package.json").version;
// The very axios module instance the client uses (CommonJS build).
const axios = require(require.resolve("axios", { paths: [clientEntry] }));

const BASE_URL = (process.env.BASE_URL || "http://localhost:8080").replace(/\/+$/, "");
const API_KEY = process.env.API_KEY;
const VERBOSE = process.env.VERBOSE === "1";
const USE_EVENT_POSITION = process.env.USE_EVENT_POSITION === "1";

if (!API_KEY) {
  console.error("API_KEY is required (e.g. API_KEY=... node " + process.argv[1].split("/").pop() + ")");
  process.exit(2);
}

// ---------------------------------------------------------------- wire log
let wire = [];
const writes = []; // every successful write of the whole run (wire is per step)
let lastWritePosition; // X-Event-Position of the latest write response
const redact = (headers) => {
  const out = {};
  for (const [k, v] of Object.entries(headers || {})) {
    if (typeof v === "function" || v === undefined) continue;
    out[k] = /^(x-api-key|authorization)$/i.test(k) ? "<redacted>" : v;
  }
  return out;
};
const plainHeaders = (h) => (h && typeof h.toJSON === "function" ? h.toJSON() : h || {});
const record = (response, error) => {
  const cfg = (response || error)?.config || {};
  const entry = {
    method: (cfg.method || "?").toUpperCase(),
    url: cfg.url,
    requestHeaders: redact(plainHeaders(cfg.headers)),
    requestBody: cfg.data,
    status: response?.status,
    responseHeaders: plainHeaders(response?.headers),
    responseBody: response?.data,
    networkError: response ? undefined : error?.code || error?.message,
  };
  wire.push(entry);
  if (entry.method !== "GET" && entry.status >= 200 && entry.status < 300) writes.push(entry);
  const pos = entry.responseHeaders?.["x-event-position"];
  if (pos !== undefined && entry.method !== "GET") lastWritePosition = String(pos);
  if (VERBOSE) console.log("  " + describe(entry, true));
};
axios.interceptors.response.use(
  (response) => {
    record(response);
    return response;
  },
  (error) => {
    record(error.response, error);
    return Promise.reject(error);
  }
);
const short = (v, n = 600) => {
  if (v === undefined) return "<none>";
  const s = typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v);
  return s.length > n ? s.slice(0, n) + "…" : s;
};
function describe(e, withReqHeaders = false) {
  const ct = e.responseHeaders?.["content-type"];
  const parts = [
    `${e.method} ${e.url}`,
    e.networkError ? `network error ${e.networkError}` : `-> HTTP ${e.status}${ct ? ` (${ct})` : ""}`,
  ];
  if (withReqHeaders) parts.push(`reqHeaders=${short(e.requestHeaders)}`);
  if (e.requestBody !== undefined) parts.push(`reqBody=${short(e.requestBody, 300)}`);
  parts.push(`body=${short(e.responseBody)}`);
  return parts.join(" ");
}
const lastExchange = () => (wire.length ? describe(wire[wire.length - 1]) : "no HTTP exchange recorded");
const lastStatus = () => (wire.length ? wire[wire.length - 1].status : undefined);
/** The latest recorded HTTP exchange of the current step (method, url, status, headers, bodies). */
const lastEntry = () => wire[wire.length - 1];
/** Every exchange recorded so far in the current step. */
const lastWire = () => wire.slice();
/** Every successful write (method, url, status) the client made in this run so far. */
const successfulWrites = () => writes.slice();

// ---------------------------------------------------------------- harness
const results = [];
class StepFailure extends Error {}
const check = (cond, msg) => {
  if (!cond) throw new StepFailure(msg);
};
const errText = (err) => {
  if (!err) return String(err);
  if (err instanceof StepFailure) return err.message;
  const cls = err.constructor?.name || err.name;
  const extra = [
    err.httpStatusCode !== undefined ? `httpStatusCode=${err.httpStatusCode}` : null,
    err.code !== undefined ? `code=${err.code}` : null,
  ]
    .filter(Boolean)
    .join(" ");
  return `client threw ${cls}${extra ? ` (${extra})` : ""}: ${err.message}`;
};

async function step(name, fn, { required = false } = {}) {
  wire = [];
  try {
    const note = await fn();
    results.push({ name, ok: true });
    console.log(`PASS ${name}${note ? ` (${note})` : ""}`);
    return true;
  } catch (err) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${errText(err)} | last exchange: ${lastExchange()}`);
    if (required) throw new Error(`aborting: required step "${name}" failed`);
    return false;
  }
}

/**
 * Reads once, right after the write, and requires `accept(result)`: the server lets a principal read its own
 * writes at once (no header, no retry), which is what a script using the client relies on.
 */
async function atOnce(read, accept, what) {
  const value = await read();
  if (!accept(value)) {
    throw new StepFailure(`${what} not visible on the first read right after the write; got ${short(value)}`);
  }
  return { value };
}
/** Per-call options for reads: none by default, like a plain client user. */
const readOpts = () =>
  USE_EVENT_POSITION && lastWritePosition ? { headers: { "X-Event-Position": lastWritePosition } } : undefined;
/** Expect the client call to reject; returns the error. */
async function rejects(fn) {
  try {
    const v = await fn();
    throw new StepFailure(`expected the client to throw, got ${short(v)}`);
  } catch (err) {
    if (err instanceof StepFailure) throw err;
    return err;
  }
}

const isId = (v) => typeof v === "string" && /^[a-z0-9]{24}$/.test(v);
const isNum = (v) => typeof v === "number" && Number.isFinite(v);
function checkFields(obj, spec, label) {
  check(obj && typeof obj === "object", `${label}: response is not an object: ${short(obj)}`);
  const problems = [];
  for (const [k, test] of Object.entries(spec)) {
    if (!(k in obj)) problems.push(`missing ${k}`);
    else if (!test(obj[k])) problems.push(`bad ${k}=${short(obj[k], 80)}`);
  }
  check(problems.length === 0, `${label}: ${problems.join(", ")}; got ${short(obj)}`);
}
const PROJECT_FIELDS = {
  _id: isId,
  name: (v) => typeof v === "string",
  color: (v) => typeof v === "string",
  primaryLocaleReference: isId,
  createdAt: isNum,
  lastChanged: isNum,
  createdBy: (v) => typeof v === "string",
  lastChangedBy: (v) => typeof v === "string",
};
const LOCALE_FIELDS = {
  _id: isId,
  referenceId: (v) => typeof v === "string" && v.length > 0,
  name: (v) => typeof v === "string",
  primary: (v) => typeof v === "boolean",
  nluLanguage: (v) => typeof v === "string",
  fallbackLocaleReference: (v) => v === null || isId(v),
  createdAt: isNum,
  lastChanged: isNum,
  createdBy: (v) => typeof v === "string",
  lastChangedBy: (v) => typeof v === "string",
};
function checkEnvelope(page, label) {
  checkFields(
    page,
    {
      items: Array.isArray,
      total: isNum,
      nextCursor: (v) => v === null || typeof v === "string",
      previousCursor: (v) => v === null || typeof v === "string",
    },
    label
  );
}
/** Fields the client's TypeScript type declares but the response lacks (informational). */
function missingTyped(obj, keys) {
  const miss = keys.filter((k) => obj && !(k in obj));
  return miss.length ? `typed field(s) absent: ${miss.join(", ")}` : null;
}
const notes = (...n) => n.filter(Boolean).join("; ") || undefined;

/**
 * Reads once right after a delete and expects the client to reject with an HTTP 404 problem body with code "1000".
 * The spec's error table fixes code 1000 for 404, while the client picks its error class by the body's code (1002
 * would be its ResourceNotFoundError), so the client raises MissingArgumentError for it: noted, not failed.
 */
async function expectNotFound(read, what) {
  let err = null;
  try {
    await read();
  } catch (e) {
    err = e;
  }
  check(err !== null, `${what}: still visible on the first read right after the delete`);
  const e = lastEntry();
  check(e?.status === 404, `expected HTTP 404, got ${e?.status} (${errText(err)})`);
  check(e.responseBody?.code === "1000" && e.responseBody?.status === 404, `not the spec's 404 problem body: ${short(e.responseBody)}`);
  return `client raises ${err.constructor?.name} (spec: 404 carries code 1000)`;
}

/** Prints the summary line and exits: 1 if any step failed. */
function finish() {
  const failed = results.filter((r) => !r.ok);
  console.log(`# ${results.length - failed.length}/${results.length} steps passed`);
  process.exit(failed.length ? 1 : 0);
}

export {
  RestAPIClient, clientVersion, clientEntry, BASE_URL, API_KEY,
  short, lastExchange, lastStatus, lastEntry, results, StepFailure, check, errText, step, atOnce,
  readOpts, rejects, isId, isNum, checkFields, PROJECT_FIELDS, LOCALE_FIELDS, checkEnvelope,
  missingTyped, notes, finish, expectNotFound, lastWire, successfulWrites,
};
