/**
 * The store as a tenant view hands it out (`mem.store`): every call whose scope names another
 * tenant is refused, so in-process code holding one tenant's view cannot read or write another's.
 */
import { InvalidInputError } from "../core/errors.js";
import type { MemoryFilter, Scope } from "../core/types.js";
import type {
  ForgetRequest,
  ListRequest,
  MemoryStore,
  OperationFilter,
  ScopedBatch,
  ScopeTable,
  TurnFilter,
  WriteBatch,
} from "../store/memory-store.js";

export class TenantStore implements MemoryStore {
  readonly specificationVersion = "v1" as const;

  constructor(
    private readonly inner: MemoryStore,
    readonly tenant: string,
  ) {
    // Paged reads are optional in the port: this view has them exactly when the store has.
    const page = inner.readPage?.bind(inner);
    if (page)
      this.readPage = (scope: Scope, table: ScopeTable, after: string[] | null, limit: number) =>
        page(this.check(scope), table, after, limit);
    const list = inner.listPage?.bind(inner);
    if (list) this.listPage = async (scope: Scope, request: ListRequest) => list(this.check(scope), request);
  }

  readonly readPage?: MemoryStore["readPage"];
  readonly listPage?: MemoryStore["listPage"];

  /** Methods are async so a refusal is a rejected promise, like every other store error. */
  private check(scope: Scope): Scope {
    if (scope?.tenant !== this.tenant)
      throw new InvalidInputError(`This view works in tenant "${this.tenant}", not "${scope?.tenant}"`, {
        field: "tenant",
      });
    return scope;
  }

  async write(scope: Scope, batch: WriteBatch) {
    return this.inner.write(this.check(scope), batch);
  }
  async writeMany(entries: ScopedBatch[]) {
    for (const e of entries) this.check(e.scope);
    return this.inner.writeMany(entries);
  }
  async getSession(scope: Scope, id: string) {
    return this.inner.getSession(this.check(scope), id);
  }
  async listSessions(scope: Scope, filter?: Parameters<MemoryStore["listSessions"]>[1]) {
    return this.inner.listSessions(this.check(scope), filter);
  }
  async listTurns(scope: Scope, filter?: TurnFilter) {
    return this.inner.listTurns(this.check(scope), filter);
  }
  async getMemory(scope: Scope, id: string) {
    return this.inner.getMemory(this.check(scope), id);
  }
  async listMemories(scope: Scope, filter?: MemoryFilter) {
    return this.inner.listMemories(this.check(scope), filter);
  }
  async listEdges(scope: Scope, memoryIds?: string[]) {
    return this.inner.listEdges(this.check(scope), memoryIds);
  }
  async listOperations(scope: Scope, filter?: OperationFilter) {
    return this.inner.listOperations(this.check(scope), filter);
  }
  async getOperation(scope: Scope, id: string) {
    return this.inner.getOperation(this.check(scope), id);
  }
  async getEmbeddings(scope: Scope, ownerKind: "memory" | "turn", ids: string[], model: string) {
    return this.inner.getEmbeddings(this.check(scope), ownerKind, ids, model);
  }
  async searchMemories(scope: Scope, vector: Float32Array, model: string, k: number, filter?: MemoryFilter) {
    return this.inner.searchMemories(this.check(scope), vector, model, k, filter);
  }
  async forget(scope: Scope, request: ForgetRequest) {
    return this.inner.forget(this.check(scope), request);
  }
  async changeVersion(scope: Scope) {
    return this.inner.changeVersion(this.check(scope));
  }
  async changesSince(scope: Scope, since: string) {
    return (await this.inner.changesSince?.(this.check(scope), since)) ?? null;
  }
  async holdSession(scope: Scope, sessionId: string): Promise<() => Promise<void>> {
    const checked = this.check(scope);
    return (await this.inner.holdSession?.(checked, sessionId)) ?? (async () => undefined);
  }
  async open(): Promise<void> {
    await this.inner.open?.();
  }
  async listAgents(tenant: string) {
    this.check({ tenant, agent: "" });
    return this.inner.listAgents(tenant);
  }
  async stats(scope: Scope) {
    return this.inner.stats(this.check(scope));
  }
  /** Closing belongs to the engine (`mem.close()`), not to a tenant's view of its store. */
  async close(): Promise<void> {}
}
