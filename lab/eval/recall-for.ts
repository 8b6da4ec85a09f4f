/**
 * Whom a lab recall is for. Recall is private by default (a recall names the partner it is for);
 * a transcript with one partner is asked for that partner, which sees every session, and one with
 * several partners is asked for the agent's whole memory, where private memories stay out.
 */
export function recallFor(transcript: {
  sessions: { partner?: string; partners?: string[] }[];
}): { about: string } | { scope: "agent" } {
  const partners = new Set(transcript.sessions.flatMap((s) => s.partners ?? (s.partner ? [s.partner] : [])));
  return partners.size === 1 ? { about: [...partners][0]! } : { scope: "agent" };
}
