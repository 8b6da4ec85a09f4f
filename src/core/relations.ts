/**
 * Theanine's cause-effect relations between an older memory A and a newer memory B (after its
 * appendix A.1, in our words), plus None when the two share only words.
 */
export const RELATIONS = ["Changed", "Cause", "Reason", "HinderedBy", "React", "Want", "SameTopic"] as const;
export type Relation = (typeof RELATIONS)[number];
export type RelationOrNone = Relation | "None";
export const RELATIONS_OR_NONE: readonly RelationOrNone[] = [...RELATIONS, "None"];

export const RELATION_MEANINGS: Record<Relation, string> = {
  Changed: "what A describes turned into what B describes",
  Cause: "A brought about B",
  Reason: "A happened because of B",
  HinderedBy: "one of them gets in the way of the other",
  React: "B is how the person feels as a result of A",
  Want: "B is what the person wants as a result of A",
  SameTopic: "B talks about the same specific topic as A",
};
