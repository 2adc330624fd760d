// Compatibility check: drives this server through the UNMODIFIED official
// JavaScript client (@cognigy/rest-api-client) and reports one line per step:
//   PASS <step>[ (note)]
//   FAIL <step>: <reason incl. HTTP status and body of the last exchange>
// Exits 1 if any step failed, 2 on a usage error.
//
// Env:
//   BASE_URL        default http://localhost:8080 (the client appends /new/v2.0/...)
//   API_KEY         required (sent by the client as header x-api-key)
//   BASIC_USER / BASIC_PASSWORD   optional: also check HTTP Basic auth through the client
//   READ_TIMEOUT_MS default 5000: how long eventually-consistent reads are retried
//   VERBOSE=1       print every HTTP exchange the client made
//   USE_EVENT_POSITION=1  pass the last write's X-Event-Position to reads through the client's
//                   documented per-call option `{ headers }` (the client never returns response
//                   headers, so the value is taken from the observing interceptor below)
//
// The client is not patched. To report HTTP status/body on failure, the script
// attaches *observing* interceptors to the axios instance the client itself
// requires (they record and return the request/response unchanged).

import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const clientEntry = require.resolve("@cognigy/rest-api-client");
const { RestAPIClient } = require(clientEntry);
const clientVersion = require("@cognigy/rest-api-client/package.json").version;
// The very axios module instance the client uses (CommonJS build).
const axios = require(require.resolve("axios", { paths: [clientEntry] }));

const BASE_URL = (process.env.BASE_URL || "http://localhost:8080").replace(/\/+$/, "");
const API_KEY = process.env.API_KEY;
const READ_TIMEOUT_MS = Number(process.env.READ_TIMEOUT_MS || 5000);
const VERBOSE = process.env.VERBOSE === "1";
const USE_EVENT_POSITION = process.env.USE_EVENT_POSITION === "1";

if (!API_KEY) {
  console.error("API_KEY is required (e.g. API_KEY=... node official-client.mjs)");
  process.exit(2);
}

// ---------------------------------------------------------------- wire log
let wire = [];
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

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Retry a read until `accept(result)` is true (reads are eventually consistent). */
async function eventually(read, accept, what) {
  const deadline = Date.now() + READ_TIMEOUT_MS;
  let attempts = 0;
  let lastErr;
  let lastValue;
  for (;;) {
    attempts++;
    try {
      lastValue = await read();
      lastErr = undefined;
      if (accept(lastValue)) return { value: lastValue, attempts };
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > deadline) {
      if (lastErr) throw lastErr;
      throw new StepFailure(`${what} not visible after ${attempts} attempts/${READ_TIMEOUT_MS}ms; last value ${short(lastValue)}`);
    }
    await sleep(Math.min(25 * attempts, 200));
  }
}
/** Per-call options for reads: none by default, like a plain client user. */
const readOpts = () =>
  USE_EVENT_POSITION && lastWritePosition ? { headers: { "X-Event-Position": lastWritePosition } } : undefined;
const retried = (attempts) => (attempts > 1 ? `visible after ${attempts} reads` : null);
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

// ---------------------------------------------------------------- scenario
const client = new RestAPIClient({ baseUrl: BASE_URL });
client.setCredentials({ type: "ApiKey", apiKey: API_KEY });

const projectName = `compat-official-client-${Date.now()}`;
let project; // created project
let primaryLocaleId; // en-US, created with the project
let localeId; // de-DE, created by the script
let projectDeleted = false;

console.log(`# @cognigy/rest-api-client ${clientVersion} against ${BASE_URL}`);

try {
  await step(
    "createProject",
    async () => {
      project = await client.createProject({ name: projectName, locale: "en-US" });
      check(lastStatus() === 201, `expected HTTP 201, got ${lastStatus()}`);
      checkFields(project, PROJECT_FIELDS, "createProject");
      check(project.name === projectName, `name ${short(project.name)} != ${projectName}`);
      primaryLocaleId = project.primaryLocaleReference;
      return missingTyped(project, ["liveAgentDefaultInbox"]);
    },
    { required: true }
  );

  await step("readProject", async () => {
    const { value, attempts } = await eventually(
      () => client.readProject({ projectId: project._id }, readOpts()),
      (p) => p && p._id === project._id,
      "project"
    );
    checkFields(value, PROJECT_FIELDS, "readProject");
    check(value.name === projectName && value.primaryLocaleReference === primaryLocaleId, `unexpected ${short(value)}`);
    return notes(retried(attempts));
  });

  await step("indexProjects", async () => {
    const { value, attempts } = await eventually(
      () => client.indexProjects(undefined, readOpts()),
      (page) => page?.items?.some((p) => p._id === project._id),
      "project in list"
    );
    checkEnvelope(value, "indexProjects");
    checkFields(value.items.find((p) => p._id === project._id), PROJECT_FIELDS, "indexProjects item");
    return notes(retried(attempts));
  });

  await step("indexProjects with {limit: 1} (client sends it as query AND as a JSON body on GET)", async () => {
    const page = await client.indexProjects({ limit: 1 }, readOpts());
    checkEnvelope(page, "indexProjects(limit)");
    check(page.items.length <= 1, `limit ignored: ${page.items.length} items`);
    const e = wire[wire.length - 1];
    return `${e.method} ${e.url}`;
  });

  await step("indexLocales (primary locale created with the project)", async () => {
    const { value, attempts } = await eventually(
      () => client.indexLocales({ projectId: project._id }, readOpts()),
      (page) => page?.items?.some((l) => l._id === primaryLocaleId),
      "primary locale in list"
    );
    checkEnvelope(value, "indexLocales");
    const l = value.items.find((x) => x._id === primaryLocaleId);
    checkFields(l, LOCALE_FIELDS, "indexLocales item");
    check(l.primary === true && l.nluLanguage === "en-US", `unexpected primary locale ${short(l)}`);
    return notes(retried(attempts));
  });

  await step(
    "createLocale (de-DE, fallback -> primary)",
    async () => {
      const l = await client.createLocale({
        projectId: project._id,
        name: "de-DE",
        nluLanguage: "de-DE",
        fallbackLocaleReference: primaryLocaleId,
      });
      check(lastStatus() === 201, `expected HTTP 201, got ${lastStatus()}`);
      checkFields(l, LOCALE_FIELDS, "createLocale");
      check(
        l.name === "de-DE" && l.nluLanguage === "de-DE" && l.primary === false && l.fallbackLocaleReference === primaryLocaleId,
        `unexpected ${short(l)}`
      );
      localeId = l._id;
    },
    { required: true }
  );

  await step("indexLocales (2 locales)", async () => {
    const { value, attempts } = await eventually(
      () => client.indexLocales({ projectId: project._id }, readOpts()),
      (page) => page?.items?.some((l) => l._id === localeId),
      "new locale in list"
    );
    checkEnvelope(value, "indexLocales");
    check(value.items.length === 2 && value.total === 2, `expected 2 locales, got total=${value.total} items=${value.items.length}`);
    return notes(retried(attempts));
  });

  await step("readLocale", async () => {
    const { value, attempts } = await eventually(
      () => client.readLocale({ localeId }, readOpts()),
      (l) => l && l._id === localeId,
      "locale"
    );
    checkFields(value, LOCALE_FIELDS, "readLocale");
    check(value.fallbackLocaleReference === primaryLocaleId, `fallbackLocaleReference ${value.fallbackLocaleReference}`);
    return notes(retried(attempts));
  });

  await step("updateLocale (rename + make primary)", async () => {
    // `primary` is not in the client's TS type IUpdateLocaleRestDataBody_2_0, but the
    // JS client forwards whatever it is given as the PATCH body.
    const l = await client.updateLocale({ localeId, name: "German", primary: true });
    check(lastStatus() === 200, `expected HTTP 200, got ${lastStatus()}`);
    checkFields(l, LOCALE_FIELDS, "updateLocale");
    check(l.name === "German" && l.primary === true, `change not in response: ${short(l)}`);
    const extra = Object.keys(l).filter((k) => !(k in LOCALE_FIELDS));
    return extra.length ? `extra response field(s): ${extra.join(", ")}` : undefined;
  });

  await step("readLocale until the update is visible", async () => {
    const { attempts } = await eventually(
      () => client.readLocale({ localeId }, readOpts()),
      (l) => l?.name === "German" && l?.primary === true,
      "renamed primary locale"
    );
    return notes(retried(attempts));
  });

  await step("old primary demoted + project.primaryLocaleReference follows", async () => {
    const { attempts: a1 } = await eventually(
      () => client.readLocale({ localeId: primaryLocaleId }, readOpts()),
      (l) => l?.primary === false,
      "old primary demoted"
    );
    const { attempts: a2 } = await eventually(
      () => client.readProject({ projectId: project._id }, readOpts()),
      (p) => p?.primaryLocaleReference === localeId,
      "project.primaryLocaleReference update"
    );
    return notes(retried(Math.max(a1, a2)));
  });

  await step("deleteLocale of a fallback target -> client raises ConflictError (409)", async () => {
    const err = await rejects(() => client.deleteLocale({ localeId: primaryLocaleId }));
    check(lastStatus() === 409, `expected HTTP 409, got ${lastStatus()} (${errText(err)})`);
    check(err.constructor?.name === "ConflictError" && err.httpStatusCode === 409, `wrong error mapping: ${errText(err)}`);
  });

  await step("updateLocale (clear fallbackLocaleReference)", async () => {
    const l = await client.updateLocale({ localeId, fallbackLocaleReference: null });
    check(l?.fallbackLocaleReference === null, `fallback not cleared: ${short(l)}`);
  });

  await step("deleteLocale (the now non-primary en-US)", async () => {
    // Retry briefly in case the write side still sees the old fallback link.
    const deadline = Date.now() + READ_TIMEOUT_MS;
    let res;
    for (;;) {
      try {
        res = await client.deleteLocale({ localeId: primaryLocaleId });
        break;
      } catch (err) {
        if (lastStatus() !== 409 || Date.now() > deadline) throw err;
        await sleep(50);
      }
    }
    check(lastStatus() === 204, `expected HTTP 204, got ${lastStatus()}`);
    return `client returned ${short(res)}`;
  });

  await step("readLocale of deleted locale -> client raises ResourceNotFoundError (404)", async () => {
    const { value: err } = await eventually(
      async () => {
        try {
          await client.readLocale({ localeId: primaryLocaleId }, readOpts());
          return null; // still visible, retry
        } catch (e) {
          return e;
        }
      },
      (e) => e !== null,
      "locale deletion"
    );
    check(lastStatus() === 404, `expected HTTP 404, got ${lastStatus()} (${errText(err)})`);
    check(
      err.constructor?.name === "ResourceNotFoundError" && err.httpStatusCode === 404,
      `HTTP 404 is surfaced by the client as ${errText(err)}; the client maps the body's "code" to an error class ` +
        `(1002 -> ResourceNotFoundError, 1000 -> MissingArgumentError)`
    );
  });

  await step("indexLocales (1 locale left)", async () => {
    const { value, attempts } = await eventually(
      () => client.indexLocales({ projectId: project._id }, readOpts()),
      (page) => page?.items?.length === 1,
      "locale list with 1 item"
    );
    check(value.total === 1 && value.items[0]._id === localeId, `unexpected ${short(value)}`);
    return notes(retried(attempts));
  });

  await step("invalid argument -> client raises a BadRequestError (400)", async () => {
    const err = await rejects(() => client.readProject({ projectId: "not-an-id" }, readOpts()));
    check(lastStatus() === 400, `expected HTTP 400, got ${lastStatus()}`);
    check(err.httpStatusCode === 400, `wrong error mapping: ${errText(err)}`);
    return `surfaced as ${err.constructor?.name} code=${err.code}`;
  });

  await step("deleteProject", async () => {
    const res = await client.deleteProject({ projectId: project._id });
    const st = lastStatus();
    check(st === 204 || st === 202 || st === 200, `unexpected HTTP ${st}`);
    projectDeleted = true;
    return `HTTP ${st}, client returned ${short(res)}`;
  });

  await step("readProject after delete -> client raises ResourceNotFoundError (404)", async () => {
    const { value: err } = await eventually(
      async () => {
        try {
          await client.readProject({ projectId: project._id }, readOpts());
          return null;
        } catch (e) {
          return e;
        }
      },
      (e) => e !== null,
      "project deletion"
    );
    check(lastStatus() === 404, `expected HTTP 404, got ${lastStatus()} (${errText(err)})`);
    check(
      err.constructor?.name === "ResourceNotFoundError" && err.httpStatusCode === 404,
      `HTTP 404 is surfaced by the client as ${errText(err)}`
    );
  });

  await step("no credentials -> client raises UnauthorizedError (401)", async () => {
    const anon = new RestAPIClient({ baseUrl: BASE_URL });
    const err = await rejects(() => anon.indexProjects());
    check(lastStatus() === 401, `expected HTTP 401, got ${lastStatus()}`);
    check(err.constructor?.name === "UnauthorizedError" && err.httpStatusCode === 401, `wrong error mapping: ${errText(err)}`);
  });

  if (process.env.BASIC_USER && process.env.BASIC_PASSWORD) {
    await step("Basic auth (setCredentials type Basic) -> indexProjects", async () => {
      const basic = new RestAPIClient({ baseUrl: BASE_URL });
      basic.setCredentials({ type: "Basic", username: process.env.BASIC_USER, password: process.env.BASIC_PASSWORD });
      const page = await basic.indexProjects();
      checkEnvelope(page, "indexProjects(basic)");
    });
  }
} catch (err) {
  console.log(`# ${err.message}`);
} finally {
  if (project?._id && !projectDeleted) {
    try {
      await client.deleteProject({ projectId: project._id });
      console.log(`# cleanup: deleted project ${project._id}`);
    } catch (err) {
      console.log(`# cleanup: could not delete project ${project._id}: ${errText(err)}`);
    }
  }
}

const failed = results.filter((r) => !r.ok);
console.log(`# ${results.length - failed.length}/${results.length} steps passed`);
process.exit(failed.length ? 1 : 0);
