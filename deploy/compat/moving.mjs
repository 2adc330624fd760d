// Compatibility check: moving a bot between organisations through the UNMODIFIED official client:
// createSnapshot -> packageSnapshot -> composeSnapshotDownloadLink -> download -> uploadSnapshotPackage (into a
// project of a second organisation; indexResourcesInSnapshot lists what it holds) -> restoreSnapshot there -> a new
// snapshot has the same content hash.
// Same output and environment as the other scripts (harness.mjs); API_KEY must be a system administrator's (the
// bootstrap key), because the script creates the second organisation.

import {
  RestAPIClient, clientVersion, BASE_URL, API_KEY, short, lastStatus, check, errText, step, rejects, finish,
} from "./harness.mjs";

const client = new RestAPIClient({ baseUrl: BASE_URL });
client.setCredentials({ type: "ApiKey", apiKey: API_KEY });
const stamp = Date.now();
let source, target, other, snapshot, hash, pkg, uploaded;

/** A task runs in the background: wait (bounded) for it to end, and require it to end done. */
async function done(api, task) {
  const until = Date.now() + 30_000;
  for (;;) {
    const t = await api.readTask({ taskId: task._id });
    if (["done", "error", "cancelled"].includes(t.status)) {
      check(t.status === "done", `task ${task.type} ended ${t.status}: ${short(t.failReason)}`);
      return t;
    }
    if (Date.now() > until) throw new Error(`task ${task.type} ${task._id} did not end within 30 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function post(path, body, headers) {
  const res = await fetch(`${BASE_URL}/new${path}`, { method: "POST", body: JSON.stringify(body),
    headers: { "Content-Type": "application/json", ...headers } });
  return { status: res.status, body: await res.json() };
}

console.log(`# @cognigy/rest-api-client ${clientVersion} against ${BASE_URL}: moving a bot`);

try {
  await step("a project with a flow, an intent and a sentence; createSnapshot (a Task) to done", async () => {
    source = await client.createProject({ name: `compat-moving-${stamp}`, locale: "en-US" });
    const flow = await client.createFlow({ projectId: source._id, name: "Main" });
    const intent = await client.createIntent({ flowId: flow._id, name: "Greet" });
    await client.createSentence({ flowId: flow._id, intentId: intent._id, text: "Hello there",
      localeId: source.primaryLocaleReference });
    const task = await client.createSnapshot({ projectId: source._id, name: "To move", description: "moving" });
    await done(client, task);
    snapshot = (await client.readTask({ taskId: task._id })).parameters.snapshotId;
    hash = (await client.readSnapshot({ snapshotId: snapshot })).hash;
    check(/^[0-9a-f]{64}$/.test(hash || ""), `no hash on the snapshot: ${hash}`);
  }, { required: true });

  await step("composeSnapshotDownloadLink before packaging -> client raises ConflictError (409)", async () => {
    const err = await rejects(() => client.composeSnapshotDownloadLink({ snapshotId: snapshot }));
    check(lastStatus() === 409, `expected HTTP 409, got ${lastStatus()} (${errText(err)})`);
  });

  await step("packageSnapshot (a Task) to done, composeSnapshotDownloadLink, download with the user's key", async () => {
    await done(client, await client.packageSnapshot({ snapshotId: snapshot }));
    const { downloadLink } = await client.composeSnapshotDownloadLink({ snapshotId: snapshot });
    check(downloadLink?.includes(`/snapshots/${snapshot}/download?token=`), `unexpected link ${downloadLink}`);
    const anonymous = await fetch(downloadLink);
    check(anonymous.status === 401, `a download without credentials answered ${anonymous.status}`);
    const res = await fetch(downloadLink, { headers: { "X-API-Key": API_KEY } });
    check(res.status === 200, `download answered ${res.status}`);
    pkg = Buffer.from(await res.arrayBuffer());
    return `${pkg.length} bytes`;
  }, { required: true });

  await step("a second organisation with a project of its own", async () => {
    const email = `mover-${stamp}@example.com`;
    const org = await post("/management/v2.0/organisations", { name: `Mover ${stamp}`, adminEmail: email,
      adminPassword: `password-${stamp}` }, { "X-API-Key": API_KEY });
    check(org.status === 201, `organisation: HTTP ${org.status} ${short(org.body)}`);
    const basic = "Basic " + Buffer.from(`${email}:password-${stamp}`).toString("base64");
    const key = await post("/v2.0/users/me/apikeys", {}, { Authorization: basic });
    check(key.status === 201, `api key: HTTP ${key.status}`);
    other = new RestAPIClient({ baseUrl: BASE_URL });
    other.setCredentials({ type: "ApiKey", apiKey: key.body.key });
    target = await other.createProject({ name: `compat-arrived-${stamp}`, locale: "en-US" });
  }, { required: true });

  await step("uploadSnapshotPackage into it (a Task) to done, then restoreSnapshot there to done", async () => {
    const task = await other.uploadSnapshotPackage({ projectId: target._id, file: pkg, fileName: "snapshot.json" });
    check(lastStatus() === 202, `expected HTTP 202, got ${lastStatus()}`);
    uploaded = (await done(other, task)).parameters.snapshotId;
    const read = await other.readSnapshot({ snapshotId: uploaded });
    check(read.hash === hash && read.name === "To move", `uploaded snapshot ${short(read)}`);
    // indexResourcesInSnapshot: the flow the package holds, with the _id it had where the snapshot was taken
    const [mine, theirs] = await Promise.all([
      client.indexResourcesInSnapshot({ snapshotId: snapshot, resourceType: "flow" }),
      other.indexResourcesInSnapshot({ snapshotId: uploaded, resourceType: "flow" }),
    ]);
    check(mine.items?.length === 1 && mine.items[0].name === "Main", `source's flows ${short(mine)}`);
    check(JSON.stringify(theirs.items) === JSON.stringify(mine.items.map((i) => ({ ...i, createdAt: theirs.items[0]?.createdAt,
      createdBy: theirs.items[0]?.createdBy }))), `uploaded snapshot's flows ${short(theirs)} vs ${short(mine)}`);
    await done(other, await other.restoreSnapshot({ snapshotId: uploaded, projectId: target._id }));
  });

  await step("a snapshot of the restored project has the original's content hash", async () => {
    const task = await other.createSnapshot({ projectId: target._id, name: "After the move" });
    await done(other, task);
    const after = (await other.readTask({ taskId: task._id })).parameters.snapshotId;
    const read = await other.readSnapshot({ snapshotId: after });
    check(read.hash === hash, `hash ${read.hash} != ${hash}`);
  });

  await step("a changed package -> client raises a 400 error, and the other organisation cannot download", async () => {
    const changed = Buffer.from(pkg.toString("utf8").replace('"description":"moving"', '"description":"mine"'));
    check(!changed.equals(pkg), "the package did not change");
    const err = await rejects(() => other.uploadSnapshotPackage({ projectId: target._id, file: changed,
      fileName: "snapshot.json" }));
    check(lastStatus() === 400, `expected HTTP 400, got ${lastStatus()} (${errText(err)})`);
    const notFound = await rejects(() => other.packageSnapshot({ snapshotId: snapshot }));
    check(lastStatus() === 404, `another organisation's snapshot answered ${lastStatus()} (${errText(notFound)})`);
  });
} catch (err) {
  console.log(`# ${err.message}`);
} finally {
  for (const [api, project] of [[client, source], [other, target]]) {
    if (api && project?._id) {
      await api.deleteProject({ projectId: project._id }).catch((e) => console.log(`# cleanup: ${errText(e)}`));
    }
  }
}

finish();
