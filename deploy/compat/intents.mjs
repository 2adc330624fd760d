// Compatibility check: intents in and out of a flow through the UNMODIFIED official client: exportIntents (a Task;
// its file is read at the path its task names in parameters.file, with the user's own key) and importIntents (a
// Task over a multipart upload), in both formats the client names (csv, json) and the three modes (skip, merge,
// overwrite). A file exported, imported into an empty flow and exported again is the same file.
// Same output and environment as the other scripts (harness.mjs).

import {
  RestAPIClient, clientVersion, BASE_URL, API_KEY, short, lastStatus, check, errText, step, rejects, finish,
} from "./harness.mjs";

const client = new RestAPIClient({ baseUrl: BASE_URL });
client.setCredentials({ type: "ApiKey", apiKey: API_KEY });
const stamp = Date.now();
let project, locale, source, files = {};

/** A task runs in the background: wait (bounded) for it to end, and require it to end done. */
async function done(task) {
  const until = Date.now() + 30_000;
  for (;;) {
    const t = await client.readTask({ taskId: task._id });
    if (["done", "error", "cancelled"].includes(t.status)) {
      check(t.status === "done", `task ${task.type} ended ${t.status}: ${short(t.failReason)}`);
      return t;
    }
    if (Date.now() > until) throw new Error(`task ${task.type} ${task._id} did not end within 30 s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** exportIntents to done, then its file. */
async function exported(flowId, format) {
  const task = await client.exportIntents({ flowId, localeId: locale, format });
  check(lastStatus() === 202 && task.type === "exportIntents", `exportIntents: HTTP ${lastStatus()} ${short(task)}`);
  const ended = await done(task);
  const res = await fetch(`${BASE_URL}${ended.parameters.file}`, { headers: { "X-API-Key": API_KEY } });
  check(res.status === 200, `the export's file answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer()).toString("utf8");
}

async function imported(flowId, mode, text) {
  const task = await client.importIntents({ flowId, localeId: locale, mode, file: Buffer.from(text),
    fileName: "intents.txt" });
  check(lastStatus() === 202 && task.type === "importIntents", `importIntents: HTTP ${lastStatus()} ${short(task)}`);
  return done(task);
}

async function sentencesOf(flowId, name) {
  const intents = await client.indexIntents({ flowId, limit: 100 });
  const intent = intents.items.find((i) => i.name === name);
  check(intent, `no intent ${name} in ${short(intents.items.map((i) => i.name))}`);
  const sentences = await client.indexSentences({ flowId, intentId: intent._id, limit: 100 });
  return sentences.items.map((s) => s.text);
}

console.log(`# @cognigy/rest-api-client ${clientVersion} against ${BASE_URL}: intents in and out`);

try {
  await step("a flow with a parent and a child intent, sentences CSV must quote", async () => {
    project = await client.createProject({ name: `compat-intents-${stamp}`, locale: "en-US" });
    locale = project.primaryLocaleReference;
    source = await client.createFlow({ projectId: project._id, name: "Source" });
    const parent = await client.createIntent({ flowId: source._id, name: "Order", rules: ["r1"],
      confirmationSentences: ["Shall I order?"], tags: ["shop"] });
    const child = await client.createIntent({ flowId: source._id, name: "Order, \"pizza\"", parentIntentId: parent._id });
    for (const [intent, text] of [[parent, "I want to order"], [parent, "order, please"], [child, "a \"large\"\npizza"]]) {
      await client.createSentence({ flowId: source._id, intentId: intent._id, text, localeId: locale });
    }
  }, { required: true });

  for (const format of ["json", "csv"]) {
    await step(`exportIntents (${format}) -> importIntents into an empty flow -> exportIntents: the same file`, async () => {
      files[format] = await exported(source._id, format);
      const copy = await client.createFlow({ projectId: project._id, name: `Copy ${format}` });
      await imported(copy._id, "skip", files[format]);
      const again = await exported(copy._id, format);
      check(again === files[format], `second export differs:\n${again}\n--- vs ---\n${files[format]}`);
      const texts = await sentencesOf(copy._id, "Order, \"pizza\"");
      check(JSON.stringify(texts) === JSON.stringify(["a \"large\"\npizza"]), `child's sentences ${short(texts)}`);
      return `${files[format].length} bytes`;
    });
  }

  await step("importIntents modes: skip keeps, merge adds what is missing, overwrite replaces", async () => {
    const file = "order,exampleSentence,order, please\norder,exampleSentence,one more\n";
    await imported(source._id, "skip", file);
    let texts = await sentencesOf(source._id, "Order");
    check(JSON.stringify(texts) === JSON.stringify(["I want to order", "order, please"]), `after skip ${short(texts)}`);
    await imported(source._id, "merge", file);
    texts = await sentencesOf(source._id, "Order");
    check(JSON.stringify(texts) === JSON.stringify(["I want to order", "order, please", "one more"]),
      `after merge ${short(texts)}`);
    await imported(source._id, "overwrite", file);
    texts = await sentencesOf(source._id, "order");
    check(JSON.stringify(texts.sort()) === JSON.stringify(["one more", "order, please"]), `after overwrite ${short(texts)}`);
  });

  await step("importIntents of a file it cannot read -> client raises a 400 error naming the row", async () => {
    const err = await rejects(() => client.importIntents({ flowId: source._id, localeId: locale, mode: "merge",
      file: Buffer.from("A,defaultReply,Hello\n"), fileName: "intents.csv" }));
    check(lastStatus() === 400 && errText(err).includes("Row 1"), `HTTP ${lastStatus()} (${errText(err)})`);
    const bad = await rejects(() => client.exportIntents({ flowId: source._id, localeId: locale, format: "xlsx" }));
    check(lastStatus() === 400, `export as xlsx: HTTP ${lastStatus()} (${errText(bad)})`);
  });
} catch (err) {
  console.log(`# ${err.message}`);
} finally {
  if (project?._id) {
    await client.deleteProject({ projectId: project._id }).catch((e) => console.log(`# cleanup: ${errText(e)}`));
  }
}

finish();
