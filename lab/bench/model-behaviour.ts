/**
 * `npm run bench model-behaviour`: every strategy against every family of model misbehaviour
 * (memlane/testing's misbehaving server), summed per family: the share of replies returned, of
 * sessions whose memories landed (whole: with no failure of theirs recorded), the sessions lost
 * (neither landed nor recorded as a failed operation), what the model was asked (requests,
 * structured retries, refusals answered 429/500), and, once the model answers cleanly again and
 * `retry` runs, the sessions landed and the failures still waiting. Then, for the
 * families whose slips a constrained decoder prevents, the same runs against a server that
 * honours `response_format` and one that rejects it: the retries JSON-schema output saves.
 *   [--strategies carecall,creem,memochat,theanine,emma] [--families clean,fenced,…]
 *   [--schema ignore|honour|reject] [--parts families,schema]
 */
import {
  MODEL_FAMILIES,
  type ModelFamily,
  type SchemaSupport,
  STRUCTURED_FAMILIES,
} from "../../src/testing/misbehaving-model.js";
import { type ModelBehaviourOutcome, runModelBehaviour } from "../../src/testing/model-behaviour.js";
import { flag } from "./args.js";

const list = (value: string) => value.split(",").filter(Boolean);
const percent = (n: number, of: number) => (of === 0 ? "—" : `${Math.round((100 * n) / of)} %`);

/** Runs a family for every strategy, the strategies one after another (the machine may be small). */
async function family(
  strategies: string[],
  name: ModelFamily,
  schema: SchemaSupport,
): Promise<ModelBehaviourOutcome[]> {
  const out: ModelBehaviourOutcome[] = [];
  for (const strategy of strategies) out.push(await runModelBehaviour({ strategy, family: name, schema }));
  return out;
}

function totals(outcomes: ModelBehaviourOutcome[]) {
  const sum = (f: (o: ModelBehaviourOutcome) => number) => outcomes.reduce((n, o) => n + f(o), 0);
  return {
    asked: sum((o) => o.replies.asked),
    returned: sum((o) => o.replies.returned),
    sessions: sum((o) => o.sessions.total),
    landed: sum((o) => o.sessions.landed),
    whole: sum((o) => o.sessions.whole),
    lost: sum((o) => o.sessions.lost.length),
    recorded: sum((o) => o.sessions.recorded),
    requests: sum((o) => o.model.requests),
    retries: sum((o) => o.model.schemaRetries),
    refused: sum((o) => o.model.refused),
    steps: sum((o) => o.failures.STEP ?? 0),
    retried: sum((o) => o.afterRetry.landed),
    waiting: sum((o) => o.afterRetry.waiting),
  };
}

export async function benchModelBehaviour(args: string[]): Promise<void> {
  const strategies = list(flag(args, "strategies", "carecall,creem,memochat,theanine,emma"));
  const families = list(flag(args, "families", MODEL_FAMILIES.join(","))) as ModelFamily[];
  const schema = flag(args, "schema", "ignore") as SchemaSupport;
  const parts = list(flag(args, "parts", "families,schema"));
  if (parts.includes("families")) {
    console.log(`model behaviour: ${strategies.join(", ")}; response_format ${schema}d\n`);
    console.log(
      "| family | replies returned | sessions landed | landed whole | sessions lost | failed step items | requests | structured retries | 429/500 answered | landed after retry | still waiting |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const name of families) {
      const t = totals(await family(strategies, name, schema));
      console.log(
        `| ${name} | ${percent(t.returned, t.asked)} | ${percent(t.landed, t.sessions)} | ${percent(t.whole, t.sessions)} | ${t.lost} | ${t.steps} | ${t.requests} | ${t.retries} | ${t.refused} | ${percent(t.retried, t.sessions)} | ${t.waiting} |`,
      );
    }
  }
  if (parts.includes("schema")) {
    console.log(
      "\nJSON-schema output: the structured families against a server that honours response_format and one that rejects it\n",
    );
    console.log(
      "| family | retries (honoured) | retries (rejected) | requests (honoured) | requests (rejected) | landed (honoured) | landed (rejected) |",
    );
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    const all = { honour: totals([]), reject: totals([]) };
    for (const name of STRUCTURED_FAMILIES.filter((f) => families.includes(f))) {
      const honour = totals(await family(strategies, name, "honour"));
      const reject = totals(await family(strategies, name, "reject"));
      for (const [k, t] of [
        ["honour", honour],
        ["reject", reject],
      ] as const)
        for (const key of Object.keys(t) as (keyof typeof t)[]) all[k][key] += t[key];
      console.log(
        `| ${name} | ${honour.retries} | ${reject.retries} | ${honour.requests} | ${reject.requests} | ${percent(honour.landed, honour.sessions)} | ${percent(reject.landed, reject.sessions)} |`,
      );
    }
    console.log(
      `| all | ${all.honour.retries} | ${all.reject.retries} | ${all.honour.requests} | ${all.reject.requests} | ${percent(all.honour.landed, all.honour.sessions)} | ${percent(all.reject.landed, all.reject.sessions)} |`,
    );
  }
}
