// Compatibility check of the resources inside a project: drives this server through the UNMODIFIED official
// JavaScript client (@cognigy/rest-api-client) for snippets (tokens), functions, flows, states, intents and
// example sentences. One line per client call (see harness.mjs for the output format and the environment
// variables). Exits 1 if any step failed, 2 on a usage error.
//
// Every step calls one client method with the arguments its TypeScript types declare, checks the HTTP status
// and the fields of the answer, and, for writes, reads the change back through the client at once, with no
// retry: the server guarantees a principal its own writes.

import { createRequire } from "node:module";
import {
  RestAPIClient, clientVersion, clientEntry, BASE_URL, API_KEY, short, lastStatus, lastEntry, lastWire, check,
  errText, step, atOnce, readOpts, rejects, isId, isNum, checkFields, checkEnvelope, missingTyped,
  notes, finish, expectNotFound, successfulWrites,
} from "./harness.mjs";

const require = createRequire(import.meta.url);
// The client's own request function; used only for the two snippet routes that client 0.19.0 has no method for.
const { GenericAPIFn } = require(require.resolve("./GenericAPIFn", { paths: [clientEntry.replace(/[^/]+$/, "")] }));

const client = new RestAPIClient({ baseUrl: BASE_URL });
client.setCredentials({ type: "ApiKey", apiKey: API_KEY });

// ---------------------------------------------------------------- expected shapes
const str = (v) => typeof v === "string";
const bool = (v) => typeof v === "boolean";
const uuid = (v) => str(v) && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v);
const META = { _id: isId, createdAt: isNum, lastChanged: isNum, createdBy: isId, lastChangedBy: isId };
const SNIPPET = { ...META, label: str, type: str, script: str, referenceId: uuid };
const FUNCTION = { ...META, name: str, code: str, referenceId: uuid, isDisabled: bool };
const FUNCTION_ITEM = { ...META, name: str, referenceId: uuid, isDisabled: bool };
const FLOW = { ...META, name: str, description: str, referenceId: uuid };
const STATE = { ...META, name: str, referenceId: uuid, isDefault: bool, type: str, intentIds: Array.isArray };
const INTENT_ITEM = {
  _id: isId, referenceId: uuid, name: str, tags: Array.isArray, isRejectIntent: bool, isDisabled: bool,
  localeReference: isId, parentIntentId: (v) => v === null || v === undefined || isId(v),
};
const INTENT = {
  ...META, ...INTENT_ITEM, condition: str, confirmationSentences: Array.isArray, disambiguationSentence: str,
  rules: Array.isArray,
};
const SENTENCE = { ...META, text: str, localeReference: isId };
const FEEDBACK = (v) => v && Array.isArray(v.findings) && v.info && isNum(v.info.fScore);

/** The latest exchange's response header (lower case name). */
const header = (name) => lastEntry()?.responseHeaders?.[name];
const expectStatus = (status) => check(lastStatus() === status, `expected HTTP ${status}, got ${lastStatus()}`);
/** Status and Location of a create. */
function created(label) {
  expectStatus(201);
  const location = header("location");
  check(str(location) && location.length > 0, `${label}: no Location header`);
}
/** A list read until `accept(page)`, with the envelope checked. */
async function listUntil(read, accept, what) {
  const { value } = await atOnce(read, (page) => page && Array.isArray(page.items) && accept(page), what);
  checkEnvelope(value, what);
  return { page: value, note: null };
}
const urlOf = () => `${lastEntry()?.method} ${decodeURIComponent(lastEntry()?.url.replace(BASE_URL, "") || "")}`;

// ---------------------------------------------------------------- scenario
const stamp = Date.now();
let project, primaryLocaleId, germanLocaleId;
let snippet, fn, flow, state, intent, child, sentence;

console.log(`# @cognigy/rest-api-client ${clientVersion} against ${BASE_URL}: snippets, functions, flows, states, intents, sentences`);

try {
  await step(
    "setup: createProject + createLocale (de-DE)",
    async () => {
      project = await client.createProject({ name: `compat-resources-${stamp}`, locale: "en-US" });
      primaryLocaleId = project.primaryLocaleReference;
      check(isId(primaryLocaleId), `no primaryLocaleReference: ${short(project)}`);
      const de = await client.createLocale({ projectId: project._id, name: "German", nluLanguage: "de-DE" });
      germanLocaleId = de._id;
    },
    { required: true }
  );

  // ------------------------------------------------------------ snippets (tokens)
  await step(
    "createSnippet",
    async () => {
      snippet = await client.createSnippet({
        projectId: project._id, label: "Customer name", type: "custom", script: "input.data.name",
      });
      created("createSnippet");
      checkFields(snippet, SNIPPET, "createSnippet");
      check(snippet.label === "Customer name" && snippet.type === "custom" && snippet.script === "input.data.name",
        `unexpected ${short(snippet)}`);
    },
    { required: true }
  );

  // Client 0.19.0 has no readSnippet/updateSnippet: the same request through the client's own GenericAPIFn.
  const readSnippet = ({ projectId, snippetId }, options) =>
    GenericAPIFn(`/new/v2.0/projects/${projectId}/snippets/${snippetId}`, "GET", client)(undefined, options);
  const updateSnippet = ({ projectId, snippetId, ...body }, options) =>
    GenericAPIFn(`/new/v2.0/projects/${projectId}/snippets/${snippetId}`, "PATCH", client)(body, options);

  await step("readSnippet (no client method in 0.19.0: GET through the client's GenericAPIFn)", async () => {
    const { value } = await atOnce(
      () => readSnippet({ projectId: project._id, snippetId: snippet._id }, readOpts()),
      (s) => s?._id === snippet._id,
      "snippet"
    );
    checkFields(value, SNIPPET, "readSnippet");
    check(value.referenceId === snippet.referenceId, `referenceId changed: ${short(value)}`);
    return null;
  });

  await step("updateSnippet (no client method in 0.19.0: PATCH through the client's GenericAPIFn)", async () => {
    const s = await updateSnippet({ projectId: project._id, snippetId: snippet._id, label: "Customer full name",
      script: "input.data.fullName" });
    expectStatus(200);
    checkFields(s, SNIPPET, "updateSnippet");
    check(s.label === "Customer full name" && s.script === "input.data.fullName" && s.type === "custom",
      `change not in response: ${short(s)}`);
  });

  await step("indexSnippets", async () => {
    const { page, note } = await listUntil(
      () => client.indexSnippets({ projectId: project._id }, readOpts()),
      (p) => p.items.some((s) => s._id === snippet._id && s.label === "Customer full name"),
      "updated snippet in list"
    );
    check(page.total === 1 && page.items.length === 1, `expected only the custom snippet, got ${short(page)}`);
    checkFields(page.items[0], SNIPPET, "indexSnippets item");
    return note;
  });

  await step("indexSnippets with filter, sort, limit", async () => {
    await client.createSnippet({ projectId: project._id, label: "Order number", type: "context", script: "context.order" });
    const { page, note } = await listUntil(
      () => client.indexSnippets({ projectId: project._id, filter: "o", sort: { label: "desc" }, limit: 1 }, readOpts()),
      (p) => p.total === 2,
      "two snippets"
    );
    check(page.items.length === 1 && page.items[0].label === "Order number" && isId(page.nextCursor),
      `unexpected page ${short(page)}`);
    const next = await client.indexSnippets({ projectId: project._id, filter: "o", sort: { label: "desc" }, limit: 1,
      next: page.nextCursor }, readOpts());
    check(next.items.length === 1 && next.items[0]._id === snippet._id, `unexpected next page ${short(next)}`);
    return notes(note, urlOf());
  });

  await step("deleteSnippet", async () => {
    await client.deleteSnippet({ projectId: project._id, snippetId: snippet._id });
    expectStatus(204);
    return expectNotFound(() => readSnippet({ projectId: project._id, snippetId: snippet._id }, readOpts()),
      "snippet deletion");
  });

  // ------------------------------------------------------------ functions
  await step(
    "createFunction",
    async () => {
      fn = await client.createFunction({ projectId: project._id, name: `Nightly export ${stamp}`,
        code: "export default async ({ api }) => { api.log('info', 'ok'); };" });
      created("createFunction");
      checkFields(fn, FUNCTION, "createFunction");
      check(fn.isDisabled === false, `isDisabled ${fn.isDisabled}`);
    },
    { required: true }
  );

  await step("readFunction", async () => {
    const { value } = await atOnce(() => client.readFunction({ functionId: fn._id }, readOpts()),
      (f) => f?._id === fn._id, "function");
    checkFields(value, FUNCTION, "readFunction");
    check(value.code === fn.code && value.name === fn.name, `unexpected ${short(value)}`);
    return null;
  });

  await step("updateFunction", async () => {
    const f = await client.updateFunction({ functionId: fn._id, name: `Nightly export v2 ${stamp}`, isDisabled: true });
    expectStatus(200);
    check(f && f.name === `Nightly export v2 ${stamp}` && f.isDisabled === true, `change not in response: ${short(f)}`);
    await atOnce(() => client.readFunction({ functionId: fn._id }, readOpts()),
      (r) => r?.isDisabled === true && r.name === f.name, "updated function");
    return null;
  });

  await step("indexFunctions with projectId", async () => {
    const { page, note } = await listUntil(() => client.indexFunctions({ projectId: project._id }, readOpts()),
      (p) => p.items.some((f) => f._id === fn._id && f.isDisabled), "function in project list");
    check(page.total === 1, `expected 1 function in the project, got ${page.total}`);
    checkFields(page.items[0], FUNCTION_ITEM, "indexFunctions item");
    return note;
  });

  await step("indexFunctions without projectId (the organisation's functions)", async () => {
    const { page, note } = await listUntil(
      () => client.indexFunctions({ filter: `v2 ${stamp}` }, readOpts()),
      (p) => p.items.some((f) => f._id === fn._id), "function in organisation list");
    check(page.total === 1, `filter should match only this run's function: ${short(page)}`);
    const plain = await client.indexFunctions(undefined, readOpts());
    checkEnvelope(plain, "indexFunctions()");
    return notes(note, `indexFunctions() total=${plain.total}`);
  });

  await step("deleteFunction", async () => {
    await client.deleteFunction({ functionId: fn._id });
    expectStatus(204);
    return expectNotFound(() => client.readFunction({ functionId: fn._id }, readOpts()), "function deletion");
  });

  // ------------------------------------------------------------ flows
  await step(
    "createFlow",
    async () => {
      flow = await client.createFlow({ projectId: project._id, name: `Main flow ${stamp}`, description: "Entry point" });
      created("createFlow");
      checkFields(flow, FLOW, "createFlow");
      check(flow.description === "Entry point", `unexpected ${short(flow)}`);
    },
    { required: true }
  );

  await step("readFlow", async () => {
    const { value } = await atOnce(() => client.readFlow({ flowId: flow._id }, readOpts()),
      (f) => f?._id === flow._id, "flow");
    checkFields(value, FLOW, "readFlow");
    return notes(null, missingTyped(value, ["localeReference", "isTrainingOutOfDate"]));
  });

  await step("readFlow with preferredLocaleId and includeFeedbackReport (typed parameters)", async () => {
    const f = await client.readFlow({ flowId: flow._id, preferredLocaleId: germanLocaleId, includeFeedbackReport: true },
      readOpts());
    checkFields(f, FLOW, "readFlow(params)");
    return notes(urlOf(), missingTyped(f, ["feedbackReport"]));
  });

  await step("updateFlow", async () => {
    const f = await client.updateFlow({ flowId: flow._id, name: `Main flow v2 ${stamp}`, description: "Renamed" });
    expectStatus(200);
    check(f && f.name === `Main flow v2 ${stamp}` && f.description === "Renamed", `change not in response: ${short(f)}`);
    await atOnce(() => client.readFlow({ flowId: flow._id }, readOpts()),
      (r) => r?.description === "Renamed", "updated flow");
    return null;
  });

  await step("readFlowSettings (defaults), updateFlowSettings (a setting + localeSettings), read back at once", async () => {
    const before = await client.readFlowSettings({ flowId: flow._id }, readOpts());
    expectStatus(200);
    check(before?._id === flow._id && before.flowIntentMappingOrder === "joint" && Array.isArray(before.localeSettings),
      `unexpected defaults: ${short(before)}`);
    const after = await client.updateFlowSettings({ flowId: flow._id, flowIntentMappingOrder: "main",
      intentThreshold: { lower: 0.3 }, localeSettings: { localeReference: germanLocaleId, inheritFallbackLocaleModel: true } });
    expectStatus(200);
    check(after?.flowIntentMappingOrder === "main" && after.intentThreshold?.lower === 0.3, `change not in response: ${short(after)}`);
    await atOnce(() => client.readFlowSettings({ flowId: flow._id }, readOpts()),
      (r) => r?.flowIntentMappingOrder === "main" && r.intentThreshold?.upper === 0.6
        && r.localeSettings?.some((l) => l.localeReference === germanLocaleId && l.inheritFallbackLocaleModel === true),
      "updated flow settings");
    const err = await rejects(() => client.updateFlowSettings({ flowId: flow._id, flowIntentMappingOrder: "sideways" }));
    check(lastStatus() === 400 && err.httpStatusCode === 400, `expected 400 for a value not allowed, got ${lastStatus()}`);
    return null;
  });

  await step("indexFlows with filter, sort, includeFeedbackReport, preferredLocaleId (typed parameters)", async () => {
    const page = await client.indexFlows({ projectId: project._id, filter: "main", sort: { name: "desc" },
      includeFeedbackReport: true, preferredLocaleId: germanLocaleId }, readOpts());
    checkEnvelope(page, "indexFlows(params)");
    check(page.items.some((f) => f._id === flow._id), `flow not listed: ${short(page)}`);
    return urlOf();
  });

  await step("indexFlows", async () => {
    const { page, note } = await listUntil(() => client.indexFlows({ projectId: project._id }, readOpts()),
      (p) => p.items.some((f) => f._id === flow._id && f.description === "Renamed"), "flow in list");
    check(page.total === 1, `expected 1 flow, got ${page.total}`);
    checkFields(page.items[0], FLOW, "indexFlows item");
    return note;
  });

  await step("batchFlows (create, update, delete in one project; all or nothing), read back at once", async () => {
    const made = await client.batchFlows({ projectId: project._id, operations: [
      { op: "create", value: { name: `Batch flow ${stamp}`, description: "made in a batch" } },
      { op: "update", id: flow._id, value: { description: "Renamed in a batch" } },
    ] });
    expectStatus(200);
    check(made?.created?.length === 1 && made.updated?.[0] === flow._id, `unexpected ${short(made)}`);
    await atOnce(() => client.indexFlows({ projectId: project._id }, readOpts()),
      (p) => p?.total === 2 && p.items.some((f) => f._id === made.created[0]), "batched flow");
    const removed = await client.batchFlows({ projectId: project._id, operations: [
      { op: "delete", id: made.created[0] },
      { op: "update", id: flow._id, value: { description: "Renamed" } },
    ] });
    check(removed?.deleted?.[0] === made.created[0], `unexpected ${short(removed)}`);
    return null;
  });

  // ------------------------------------------------------------ intents (before states: states name intents)
  await step(
    "createIntent",
    async () => {
      intent = await client.createIntent({ flowId: flow._id, name: "Order status", description: "Where is my order",
        tags: ["orders"], isRejectIntent: false });
      created("createIntent");
      checkFields(intent, INTENT, "createIntent");
      check(intent.localeReference === primaryLocaleId && intent.tags[0] === "orders", `unexpected ${short(intent)}`);
    },
    { required: true }
  );

  await step(
    "createIntent (child, parentIntentId)",
    async () => {
      child = await client.createIntent({ flowId: flow._id, name: "Order status by number", parentIntentId: intent._id });
      created("createIntent child");
      check(child.parentIntentId === intent._id, `parentIntentId ${short(child.parentIntentId)}`);
    },
    { required: true }
  );

  await step("indexLearningSentences -> 501, client raises NotImplementedError (no conversations run here)", async () => {
    const err = await rejects(() => client.indexLearningSentences({ flowId: flow._id }, readOpts()));
    check(lastStatus() === 501, `expected HTTP 501, got ${lastStatus()}`);
    check(err.constructor?.name === "NotImplementedError", `surfaced as ${errText(err)}`);
  });

  await step("createIntent with shouldGenerateSentences -> 501, client raises NotImplementedError", async () => {
    const err = await rejects(() => client.createIntent({ flowId: flow._id, name: "Generated", shouldGenerateSentences: true,
      generateSentenceLimit: 5 }));
    expectStatus(501);
    check(err.constructor?.name === "NotImplementedError", `surfaced as ${errText(err)}`);
  });

  await step("batchIntents (create two; rename one and delete the other; all or nothing), read back at once", async () => {
    const made = await client.batchIntents({ flowId: flow._id, operations: [
      { op: "create", value: { name: `Batch one ${stamp}`, tags: ["batch"] } },
      { op: "create", value: { name: `Batch two ${stamp}` } },
    ] });
    expectStatus(200);
    check(made?.created?.length === 2, `unexpected ${short(made)}`);
    const [one, two] = made.created;
    const changed = await client.batchIntents({ flowId: flow._id, operations: [
      { op: "update", id: one, value: { name: `Batch two ${stamp}` } },
      { op: "delete", id: two },
    ] }).catch((e) => e);
    // the rename came first, so the name was still taken: the whole batch is refused and nothing changed
    check(lastStatus() === 409, `expected 409 for a name taken when the rename ran, got ${lastStatus()}`);
    const swapped = await client.batchIntents({ flowId: flow._id, operations: [
      { op: "delete", id: two },
      { op: "update", id: one, value: { name: `Batch two ${stamp}` } },
    ] });
    check(swapped?.deleted?.[0] === two && swapped.updated?.[0] === one, `unexpected ${short(swapped)}`);
    await atOnce(() => client.readIntent({ flowId: flow._id, intentId: one }, readOpts()),
      (r) => r?.name === `Batch two ${stamp}`, "renamed batch intent");
    await client.batchIntents({ flowId: flow._id, operations: [{ op: "delete", id: one }] });
    return notes(changed instanceof Error ? `refused batch surfaced as ${changed.constructor?.name}` : null, null);
  });

  await step("readIntent", async () => {
    const { value } = await atOnce(
      () => client.readIntent({ flowId: flow._id, intentId: intent._id }, readOpts()),
      (i) => i?._id === intent._id, "intent");
    checkFields(value, INTENT, "readIntent");
    check(value.referenceId === intent.referenceId && value.localeReference === primaryLocaleId, `unexpected ${short(value)}`);
    return null;
  });

  await step("readIntent with preferredLocaleId", async () => {
    const i = await client.readIntent({ flowId: flow._id, intentId: intent._id, preferredLocaleId: germanLocaleId },
      readOpts());
    checkFields(i, INTENT, "readIntent(preferredLocaleId)");
    // No de-DE sentence yet: the intent is answered in the locale that has its sentences (here the primary).
    return `localeReference ${i.localeReference === primaryLocaleId ? "primary" : i.localeReference}`;
  });

  await step("updateIntent (with the localeId the client's type requires)", async () => {
    const i = await client.updateIntent({ flowId: flow._id, intentId: intent._id, localeId: primaryLocaleId,
      name: "Order status v2", tags: ["orders", "status"], isDisabled: false });
    expectStatus(200);
    check(i && i.name === "Order status v2" && i.tags.length === 2, `change not in response: ${short(i)}`);
    await atOnce(() => client.readIntent({ flowId: flow._id, intentId: intent._id }, readOpts()),
      (r) => r?.name === "Order status v2", "updated intent");
    return null;
  });

  // ------------------------------------------------------------ example sentences
  await step(
    "createSentence",
    async () => {
      sentence = await client.createSentence({ flowId: flow._id, intentId: intent._id, text: "Where is my order?",
        localeId: primaryLocaleId, slots: [] });
      created("createSentence");
      checkFields(sentence, SENTENCE, "createSentence");
      check(sentence.localeReference === primaryLocaleId, `unexpected ${short(sentence)}`);
      await client.createSentence({ flowId: flow._id, intentId: intent._id, text: "Wo ist meine Bestellung?",
        localeId: germanLocaleId });
      created("createSentence de-DE");
    },
    { required: true }
  );

  await step("indexSentences", async () => {
    const { page, note } = await listUntil(
      () => client.indexSentences({ flowId: flow._id, intentId: intent._id }, readOpts()),
      (p) => p.total === 2, "two sentences");
    checkFields(page.items.find((s) => s._id === sentence._id), SENTENCE, "indexSentences item");
    return note;
  });

  await step("indexSentences with preferredLocaleId (typed parameter)", async () => {
    const page = await client.indexSentences({ flowId: flow._id, intentId: intent._id, preferredLocaleId: germanLocaleId },
      readOpts());
    checkEnvelope(page, "indexSentences(preferredLocaleId)");
    check(page.items.length === 1 && page.items[0].localeReference === germanLocaleId,
      `expected only the de-DE sentence, got ${short(page)}`);
    return urlOf();
  });

  await step("readSentence", async () => {
    const s = await client.readSentence({ flowId: flow._id, intentId: intent._id, sentenceId: sentence._id }, readOpts());
    checkFields(s, SENTENCE, "readSentence");
  });

  await step("updateSentence (text, slots, localeReference: the body the client's type requires)", async () => {
    const s = await client.updateSentence({ flowId: flow._id, intentId: intent._id, sentenceId: sentence._id,
      text: "Where is my parcel?", slots: [], localeReference: primaryLocaleId });
    expectStatus(200);
    check(s && s.text === "Where is my parcel?", `change not in response: ${short(s)}`);
    await atOnce(
      () => client.readSentence({ flowId: flow._id, intentId: intent._id, sentenceId: sentence._id }, readOpts()),
      (r) => r?.text === "Where is my parcel?", "updated sentence");
    return null;
  });

  await step("batchIntentSentences (create two, update one, delete one; all or nothing), read back at once", async () => {
    const made = await client.batchIntentSentences({ flowId: flow._id, intentId: intent._id, operations: [
      { op: "create", value: { text: "Track my order", slots: [], localeReference: primaryLocaleId } },
      { op: "create", value: { text: "Order tracking", slots: [], localeReference: primaryLocaleId } },
    ] });
    expectStatus(200);
    check(made?.created?.length === 2 && made.updated.length === 0 && made.deleted.length === 0, `unexpected ${short(made)}`);
    const [first, second] = made.created;
    const changed = await client.batchIntentSentences({ flowId: flow._id, intentId: intent._id, operations: [
      { op: "update", id: first, value: { text: "Track my parcel", slots: [], localeReference: primaryLocaleId } },
      { op: "delete", id: second },
    ] });
    check(changed?.updated?.[0] === first && changed.deleted?.[0] === second, `unexpected ${short(changed)}`);
    await atOnce(() => client.indexSentences({ flowId: flow._id, intentId: intent._id }, readOpts()),
      (p) => p?.items?.some((x) => x._id === first && x.text === "Track my parcel") && !p.items.some((x) => x._id === second),
      "batched sentences");
    const err = await rejects(() => client.batchIntentSentences({ flowId: flow._id, intentId: intent._id, operations: [
      { op: "create", value: { text: "Never stored", slots: [], localeReference: primaryLocaleId } },
      { op: "delete", id: second },
    ] }));
    // 404 with the spec's code 1000: the client raises MissingArgumentError (see README)
    check(lastStatus() === 404, `expected 404 for the missing sentence, got ${lastStatus()} (${errText(err)})`);
    const after = await client.indexSentences({ flowId: flow._id, intentId: intent._id }, readOpts());
    check(!after.items.some((x) => x.text === "Never stored"), "a failed batch stored its first operation");
    await client.batchIntentSentences({ flowId: flow._id, intentId: intent._id, operations: [{ op: "delete", id: first }] });
    return null;
  });

  /** An intent of its own with one sentence in the primary locale, for the localization steps. */
  const localizable = async (name) => {
    const made = await client.batchIntents({ flowId: flow._id, operations: [{ op: "create", value: { name } }] });
    const id = made.created[0];
    await client.batchIntentSentences({ flowId: flow._id, intentId: id, operations: [
      { op: "create", value: { text: `Localize ${name}`, slots: [], localeReference: primaryLocaleId } }] });
    return id;
  };
  const inLocale = (id, locale) => client.indexSentences({ flowId: flow._id, intentId: id, preferredLocaleId: locale }, readOpts())
    .then((p) => p.items.filter((x) => x.localeReference === locale).map((x) => x.text));

  await step("addIntentLocalization / removeIntentLocalization (sentences copied into a locale, then removed)", async () => {
    const id = await localizable(`Localized intent ${stamp}`);
    const res = await client.addIntentLocalization({ flowId: flow._id, intentId: id, localeId: germanLocaleId,
      inheritFromLocaleId: primaryLocaleId });
    expectStatus(200);
    check(res && typeof res === "object" && !res.translationError, `unexpected ${short(res)}`);
    await atOnce(() => inLocale(id, germanLocaleId), (t) => t.length === 1 && t[0].startsWith("Localize"), "the German copy");
    await client.removeIntentLocalization({ flowId: flow._id, intentId: id, localeId: germanLocaleId });
    expectStatus(200);
    await atOnce(() => inLocale(id, germanLocaleId), (t) => t.length === 0, "no German sentence left");
    await client.batchIntents({ flowId: flow._id, operations: [{ op: "delete", id }] });
    return null;
  });

  // ------------------------------------------------------------ intent list parameters
  await step("indexIntents", async () => {
    const { page, note } = await listUntil(() => client.indexIntents({ flowId: flow._id }, readOpts()),
      (p) => p.total === 2 && p.items.some((i) => i.name === "Order status v2"), "two intents");
    for (const item of page.items) checkFields(item, INTENT_ITEM, "indexIntents item");
    return note;
  });

  await step("indexIntents with parent", async () => {
    const page = await client.indexIntents({ flowId: flow._id, parent: intent._id }, readOpts());
    checkEnvelope(page, "indexIntents(parent)");
    check(page.total === 1 && page.items[0]._id === child._id, `expected the child only, got ${short(page)}`);
  });

  await step("indexIntents with includeChildren", async () => {
    const page = await client.indexIntents({ flowId: flow._id, includeChildren: true }, readOpts());
    checkEnvelope(page, "indexIntents(includeChildren)");
    check(page.total === 1 && page.items[0]._id === intent._id, `expected the root only, got ${short(page)}`);
    const nested = page.items[0].children;
    check(Array.isArray(nested) && nested.length === 1 && nested[0]._id === child._id, `child not nested: ${short(page.items[0])}`);
    return urlOf();
  });

  await step("indexIntents with preferredLocaleId", async () => {
    const page = await client.indexIntents({ flowId: flow._id, preferredLocaleId: germanLocaleId }, readOpts());
    checkEnvelope(page, "indexIntents(preferredLocaleId)");
    const item = page.items.find((i) => i._id === intent._id);
    check(item?.localeReference === germanLocaleId, `intent with de-DE sentences not shown in de-DE: ${short(item)}`);
  });

  await step("indexIntents with includeFeedbackReport", async () => {
    const { page, note } = await listUntil(
      () => client.indexIntents({ flowId: flow._id, includeFeedbackReport: true, sort: { name: "asc" } }, readOpts()),
      (p) => p.items.length === 2 && p.items.every((i) => FEEDBACK(i.feedbackReport)), "feedback reports");
    check(page.items[0].name === "Order status by number", `sort ignored: ${short(page.items.map((i) => i.name))}`);
    return note;
  });

  // ------------------------------------------------------------ states (deprecated)
  await step(
    "createFlowState",
    async () => {
      state = await client.createFlowState({ flowId: flow._id, name: "Checkout", type: "whitelist", isDefault: false,
        intentIds: [] });
      created("createFlowState");
      checkFields(state, STATE, "createFlowState");
      check(state.type === "whitelist" && state.intentIds.length === 0, `unexpected ${short(state)}`);
      check(header("deprecation") !== undefined, "no Deprecation header on a state route");
    },
    { required: true }
  );

  await step("readFlowState", async () => {
    const { value } = await atOnce(
      () => client.readFlowState({ flowId: flow._id, stateId: state._id }, readOpts()), (s) => s?._id === state._id, "state");
    checkFields(value, STATE, "readFlowState");
    return null;
  });

  await step("updateFlowState", async () => {
    const s = await client.updateFlowState({ flowId: flow._id, stateId: state._id, name: "Checkout v2", type: "blacklist" });
    expectStatus(200);
    check(s && s.name === "Checkout v2" && s.type === "blacklist", `change not in response: ${short(s)}`);
  });

  await step("addIntentToFlowState", async () => {
    await client.addIntentToFlowState({ flowId: flow._id, stateId: state._id, intentId: intent._id });
    const st = lastStatus();
    check(st >= 200 && st < 300, `unexpected HTTP ${st}`);
    await atOnce(
      () => client.readFlowState({ flowId: flow._id, stateId: state._id }, readOpts()),
      (s) => s?.intentIds?.includes(intent._id), "intent in state");
    return notes(`HTTP ${st}`, null);
  });

  await step("indexFlowStates", async () => {
    const { page, note } = await listUntil(() => client.indexFlowStates({ flowId: flow._id }, readOpts()),
      (p) => p.items.some((s) => s._id === state._id && s.name === "Checkout v2" && s.intentIds?.length === 1),
      "state in list");
    check(page.total === 1, `expected 1 state, got ${page.total}`);
    checkFields(page.items[0], STATE, "indexFlowStates item");
    return note;
  });

  await step("removeIntentFromFlowState", async () => {
    await client.removeIntentFromFlowState({ flowId: flow._id, stateId: state._id, intentId: intent._id });
    const st = lastStatus();
    check(st >= 200 && st < 300, `unexpected HTTP ${st}`);
    await atOnce(
      () => client.readFlowState({ flowId: flow._id, stateId: state._id }, readOpts()),
      (s) => s && s.intentIds.length === 0, "intent removed from state");
    return notes(`HTTP ${st}`, null);
  });

  await step("batchFlowStates (create two, rename the existing one), read back at once", async () => {
    const res = await client.batchFlowStates({ flowId: flow._id, operations: [
      { op: "create", value: { name: "Batch A", type: "blacklist", isDefault: false, intentIds: [] } },
      { op: "update", id: state._id, value: { name: "Checkout v3" } },
      { op: "create", value: { name: "Batch B", type: "whitelist", isDefault: false, intentIds: [] } },
    ] });
    expectStatus(200);
    check(res?.created?.length === 2 && res.updated?.[0] === state._id, `unexpected ${short(res)}`);
    await atOnce(() => client.indexFlowStates({ flowId: flow._id }, readOpts()),
      (p) => p?.total === 3 && p.items.some((x) => x._id === state._id && x.name === "Checkout v3"), "batched states");
    const cleanup = await client.batchFlowStates({ flowId: flow._id, operations: res.created.map((id) => ({ op: "delete", id })) });
    check(cleanup?.deleted?.length === 2, `unexpected ${short(cleanup)}`);
    return null;
  });

  await step("deleteFlowState", async () => {
    await client.deleteFlowState({ flowId: flow._id, stateId: state._id });
    expectStatus(204);
    return expectNotFound(() => client.readFlowState({ flowId: flow._id, stateId: state._id }, readOpts()), "state deletion");
  });

  // ------------------------------------------------------------ deletes
  await step("deleteSentence", async () => {
    await client.deleteSentence({ flowId: flow._id, intentId: intent._id, sentenceId: sentence._id });
    expectStatus(204);
    return expectNotFound(
      () => client.readSentence({ flowId: flow._id, intentId: intent._id, sentenceId: sentence._id }, readOpts()),
      "sentence deletion");
  });

  await step("cloneFlow (its intents with their sentences and parents, under new ids), read back at once", async () => {
    const before = await client.indexIntents({ flowId: flow._id, limit: 100 }, readOpts());
    const copy = await client.cloneFlow({ flowId: flow._id });
    check(lastStatus() === 201 || lastStatus() === 200, `expected HTTP 201, got ${lastStatus()}`);
    check(isId(copy?._id) && copy._id !== flow._id && copy.name.endsWith("(copy)"), `unexpected ${short(copy)}`);
    const { value } = await atOnce(() => client.indexIntents({ flowId: copy._id, limit: 100 }, readOpts()),
      (p) => p?.total === before.total, `the copy's ${before.total} intents`);
    const names = (p) => p.items.map((i) => i.name).sort().join("|");
    check(names(value) === names(before), `copied intents ${names(value)} != ${names(before)}`);
    check(!value.items.some((i) => before.items.some((b) => b._id === i._id)), "an intent kept its id in the copy");
    const original = before.items[0];
    const copied = value.items.find((i) => i.name === original.name);
    const [a, b] = await Promise.all([
      client.indexSentences({ flowId: flow._id, intentId: original._id }, readOpts()),
      client.indexSentences({ flowId: copy._id, intentId: copied._id }, readOpts()),
    ]);
    check(a.total === b.total, `sentences: copy has ${b.total}, original ${a.total}`);
    await client.deleteFlow({ flowId: copy._id });
    return null;
  });

  await step("deleteIntent (its child becomes a root intent)", async () => {
    await client.deleteIntent({ flowId: flow._id, intentId: intent._id });
    expectStatus(204);
    const note = await expectNotFound(() => client.readIntent({ flowId: flow._id, intentId: intent._id }, readOpts()),
      "intent deletion");
    await atOnce(() => client.readIntent({ flowId: flow._id, intentId: child._id }, readOpts()),
      (c) => c && !c.parentIntentId, "child promoted to root");
    return notes(note, null);
  });

  await step("addFlowLocalization / removeFlowLocalization (every intent of the flow at once)", async () => {
    const id = await localizable(`Localized flow ${stamp}`);
    await client.addFlowLocalization({ flowId: flow._id, localeId: germanLocaleId, inheritFromLocaleId: primaryLocaleId });
    expectStatus(200);
    await atOnce(() => inLocale(id, germanLocaleId), (t) => t.length === 1, "German copies of the flow's sentences");
    await client.removeFlowLocalization({ flowId: flow._id, localeId: germanLocaleId });
    expectStatus(200);
    await atOnce(() => inLocale(id, germanLocaleId), (t) => t.length === 0, "no German sentence left");
    return null;
  });

  await step("deleteFlow", async () => {
    await client.deleteFlow({ flowId: flow._id });
    expectStatus(204);
    return expectNotFound(() => client.readFlow({ flowId: flow._id }, readOpts()), "flow deletion");
  });

  await step("indexAuditEvents + readAuditEvent: one audit event per write of this journey", async () => {
    const writes = successfulWrites().length;
    const events = [];
    let page = await client.indexAuditEvents({ projectId: project._id, limit: 100 });
    checkEnvelope(page, "indexAuditEvents");
    events.push(...page.items);
    while (page.nextCursor) {
      page = await client.indexAuditEvents({ projectId: project._id, limit: 100, next: page.nextCursor });
      events.push(...page.items);
    }
    check(events.length === writes, `expected ${writes} audit events (one per write), got ${events.length}`);
    for (const e of events) {
      check(isId(e._id) && str(e.timestamp) && !Number.isNaN(Date.parse(e.timestamp)), `bad _id/timestamp ${short(e)}`);
      check(["create", "patch", "delete", "action", "replace"].includes(e.type), `bad type ${e.type}`);
      check(str(e.user) && e.user.includes("@") && isId(e.userReference) && isId(e.organisationReference),
        `bad user fields ${short(e)}`);
      check(e.projectReference === project._id, `projectReference ${e.projectReference}`);
      check(Array.isArray(e.chain) && e.chain.length > 0 && e.chain.every((c) => str(c.elementType)), `bad chain ${short(e)}`);
    }
    const kinds = new Set(events.map((e) => `${e.type}:${e.chain[e.chain.length - 1].elementType}`));
    for (const kind of ["create:snippet", "delete:snippet", "create:function", "patch:function", "create:flow",
      "patch:flow", "create:intent", "patch:intent", "create:examplesentence", "patch:examplesentence",
      "create:flowState", "patch:flowState", "delete:flow"]) {
      check(kinds.has(kind), `no audit event ${kind}; have ${[...kinds].join(", ")}`);
    }
    const one = await client.readAuditEvent({ auditEventId: events[events.length - 1]._id });
    check(one._id === events[events.length - 1]._id && one.type === "delete", `readAuditEvent: ${short(one)}`);
    return `${events.length} audit events for ${writes} writes`;
  });
} catch (err) {
  console.log(`# ${err.message}`);
} finally {
  if (project?._id) {
    try {
      await client.deleteProject({ projectId: project._id });
      console.log(`# cleanup: deleted project ${project._id}`);
    } catch (err) {
      console.log(`# cleanup: could not delete project ${project._id}: ${errText(err)}`);
    }
  }
}

finish();
