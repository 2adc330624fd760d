// Compatibility check: drives this server through the UNMODIFIED official
// JavaScript client (@cognigy/rest-api-client): projects and locales. One line per step
// (see harness.mjs for the output format and the environment variables).
// Exits 1 if any step failed, 2 on a usage error.
//
// Extra env:
//   BASIC_USER / BASIC_PASSWORD   optional: also check HTTP Basic auth through the client

import {
  RestAPIClient, clientVersion, BASE_URL, API_KEY, short, lastStatus, lastEntry, check, errText, step,
  atOnce, readOpts, rejects, checkFields, PROJECT_FIELDS, LOCALE_FIELDS, checkEnvelope, missingTyped,
  notes, finish, expectNotFound,
} from "./harness.mjs";

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
    const { value } = await atOnce(
      () => client.readProject({ projectId: project._id }, readOpts()),
      // The project row and its primary locale come from two events: a read between them sees "" (see README).
      (p) => p && p._id === project._id && p.primaryLocaleReference === primaryLocaleId,
      "project with its primary locale"
    );
    checkFields(value, PROJECT_FIELDS, "readProject");
    check(value.name === projectName && value.primaryLocaleReference === primaryLocaleId, `unexpected ${short(value)}`);
    return notes(null);
  });

  await step("indexProjects", async () => {
    const { value } = await atOnce(
      () => client.indexProjects(undefined, readOpts()),
      (page) => page?.items?.some((p) => p._id === project._id && p.primaryLocaleReference === primaryLocaleId),
      "project in list"
    );
    checkEnvelope(value, "indexProjects");
    checkFields(value.items.find((p) => p._id === project._id), PROJECT_FIELDS, "indexProjects item");
    return notes(null);
  });

  await step("indexProjects with {limit: 1} (client sends it as query AND as a JSON body on GET)", async () => {
    const page = await client.indexProjects({ limit: 1 }, readOpts());
    checkEnvelope(page, "indexProjects(limit)");
    check(page.items.length <= 1, `limit ignored: ${page.items.length} items`);
    const e = lastEntry();
    return `${e.method} ${e.url}`;
  });

  await step("validateProjectName (a free name -> {})", async () => {
    const res = await client.validateProjectName({ name: `${projectName}-free` });
    check(lastStatus() === 200, `expected HTTP 200, got ${lastStatus()}`);
    check(res && typeof res === "object" && Object.keys(res).length === 0, `expected {}, got ${short(res)}`);
  });

  await step("validateProjectName (this project's name, other case) -> client raises ConflictError (409)", async () => {
    const err = await rejects(() => client.validateProjectName({ name: projectName.toUpperCase() }));
    check(lastStatus() === 409, `expected HTTP 409, got ${lastStatus()}`);
    check(err.constructor?.name === "ConflictError" && err.httpStatusCode === 409, `wrong error mapping: ${errText(err)}`);
  });

  await step("updateProject (rename + color), read back at once", async () => {
    const renamed = `${projectName}-renamed`;
    const p = await client.updateProject({ projectId: project._id, name: renamed, color: "blue" });
    check(lastStatus() === 200, `expected HTTP 200, got ${lastStatus()}`);
    check(p?.name === renamed && p?.color === "blue", `change not in response: ${short(p)}`);
    const { value } = await atOnce(
      () => client.readProject({ projectId: project._id }, readOpts()),
      (r) => r && r.name === renamed && r.color === "blue",
      "renamed project"
    );
    checkFields(value, PROJECT_FIELDS, "readProject after updateProject");
    const free = await client.validateProjectName({ name: projectName });
    check(Object.keys(free).length === 0, `old name not free again: ${short(free)}`);
    return notes(null);
  });

  await step("readProjectSettings (defaults), updateProjectSettings (nested partial), read back at once", async () => {
    const before = await client.readProjectSettings({ projectId: project._id }, readOpts());
    check(lastStatus() === 200, `expected HTTP 200, got ${lastStatus()}`);
    check(before?._id === project._id && before.timezone === "UTC" && before.intentThreshold?.upper === 0.6,
      `unexpected defaults: ${short(before)}`);
    const after = await client.updateProjectSettings({ projectId: project._id, timezone: "Europe/Berlin",
      translationSettings: { connections: { google: { retries: 3 } } } });
    check(lastStatus() === 200, `expected HTTP 200, got ${lastStatus()}`);
    check(after?.timezone === "Europe/Berlin" && after.translationSettings?.connections?.google?.retries === 3,
      `change not in response: ${short(after)}`);
    await atOnce(() => client.readProjectSettings({ projectId: project._id }, readOpts()),
      (r) => r?.timezone === "Europe/Berlin" && r.translationSettings?.connections?.google?.timeout === 5000,
      "updated project settings");
    const err = await rejects(() => client.updateProjectSettings({ projectId: project._id, timezone: "Nowhere/Else" }));
    check(lastStatus() === 400 && err.httpStatusCode === 400, `expected 400 for an unknown time zone, got ${lastStatus()}`);
    return notes(null);
  });

  await step("createKnowledgeStore, updateKnowledgeStore, readKnowledgeStore at once, deleteKnowledgeStore", async () => {
    const store = await client.createKnowledgeStore({ projectId: project._id, name: "FAQ", language: "en-US" });
    check(lastStatus() === 201, `expected HTTP 201, got ${lastStatus()}`);
    const updated = await client.updateKnowledgeStore({ knowledgeStoreId: store._id, name: "Handbooks",
      description: "All of them" });
    check(lastStatus() === 200, `expected HTTP 200, got ${lastStatus()}`);
    check(updated?.name === "Handbooks" && updated?.description === "All of them", `change not in response: ${short(updated)}`);
    await atOnce(
      () => client.readKnowledgeStore({ knowledgeStoreId: store._id }, readOpts()),
      (r) => r && r.name === "Handbooks" && r.description === "All of them" && r.language === "en-US",
      "updated knowledge store"
    );
    const err = await rejects(() => client.updateKnowledgeStore({ knowledgeStoreId: store._id, language: "de-DE" }));
    check(lastStatus() === 400 && err.httpStatusCode === 400, `a store's language is fixed: expected 400, got ${lastStatus()}`);
    await client.deleteKnowledgeStore({ knowledgeStoreId: store._id });
    check(lastStatus() === 204, `expected HTTP 204, got ${lastStatus()}`);
    return notes(null);
  });

  await step("indexLocales (primary locale created with the project)", async () => {
    const { value } = await atOnce(
      () => client.indexLocales({ projectId: project._id }, readOpts()),
      (page) => page?.items?.some((l) => l._id === primaryLocaleId),
      "primary locale in list"
    );
    checkEnvelope(value, "indexLocales");
    const l = value.items.find((x) => x._id === primaryLocaleId);
    checkFields(l, LOCALE_FIELDS, "indexLocales item");
    check(l.primary === true && l.nluLanguage === "en-US", `unexpected primary locale ${short(l)}`);
    return notes(null);
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
    const { value } = await atOnce(
      () => client.indexLocales({ projectId: project._id }, readOpts()),
      (page) => page?.items?.some((l) => l._id === localeId),
      "new locale in list"
    );
    checkEnvelope(value, "indexLocales");
    check(value.items.length === 2 && value.total === 2, `expected 2 locales, got total=${value.total} items=${value.items.length}`);
    return notes(null);
  });

  await step("readLocale", async () => {
    const { value } = await atOnce(
      () => client.readLocale({ localeId }, readOpts()),
      (l) => l && l._id === localeId,
      "locale"
    );
    checkFields(value, LOCALE_FIELDS, "readLocale");
    check(value.fallbackLocaleReference === primaryLocaleId, `fallbackLocaleReference ${value.fallbackLocaleReference}`);
    return notes(null);
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
    await atOnce(
      () => client.readLocale({ localeId }, readOpts()),
      (l) => l?.name === "German" && l?.primary === true,
      "renamed primary locale"
    );
    return notes(null);
  });

  await step("old primary demoted + project.primaryLocaleReference follows", async () => {
    await atOnce(
      () => client.readLocale({ localeId: primaryLocaleId }, readOpts()),
      (l) => l?.primary === false,
      "old primary demoted"
    );
    await atOnce(
      () => client.readProject({ projectId: project._id }, readOpts()),
      (p) => p?.primaryLocaleReference === localeId,
      "project.primaryLocaleReference update"
    );
    return notes(null);
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
    // The write side decided the fallback is gone when it answered the update: the delete succeeds at once.
    const res = await client.deleteLocale({ localeId: primaryLocaleId });
    check(lastStatus() === 204, `expected HTTP 204, got ${lastStatus()}`);
    return `client returned ${short(res)}`;
  });

  await step("readLocale of deleted locale -> HTTP 404", () =>
    expectNotFound(() => client.readLocale({ localeId: primaryLocaleId }, readOpts()), "locale deletion")
  );

  await step("indexLocales (1 locale left)", async () => {
    const { value } = await atOnce(
      () => client.indexLocales({ projectId: project._id }, readOpts()),
      (page) => page?.items?.length === 1,
      "locale list with 1 item"
    );
    check(value.total === 1 && value.items[0]._id === localeId, `unexpected ${short(value)}`);
    return notes(null);
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

  await step("readProject after delete -> HTTP 404", () =>
    expectNotFound(() => client.readProject({ projectId: project._id }, readOpts()), "project deletion")
  );

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

finish();
