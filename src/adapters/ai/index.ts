/**
 * `memlane/ai`: memlane for the Vercel AI SDK — tools an agent calls to remember and recall, and a
 * middleware that remembers each exchange and puts recalled memories in the prompt. The only
 * module that imports the optional peer dependency `ai`.
 */
export * from "./ai-sdk.js";
