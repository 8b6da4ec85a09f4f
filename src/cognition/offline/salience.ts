/**
 * Which sentences are worth remembering. Following the CareCall guidance: durable facts about a
 * speaker and changes of their status are kept; greetings, small talk and one-off trivia are not.
 * Scores are additive cues; a sentence needs several to pass.
 */
import { contentTokens } from "../../core/text.js";

/** Verbs of a change of status: a new job, a move, an illness or a recovery. */
export const CHANGE_CUES =
  /\b(adopt|adopted|start|started|starting|began|begin|quit|quitting|lost|lose|moved|moving|move|joined|join|graduated|graduate|married|marry|engaged|divorced|recovered|recovering|bought|buy|sold|sell|retired|retire|finished|finish|became|become|got|won|win|decided|decide|switched|switch|signed up|enrolled|hired|fired|pregnant|born|broke up|passed away|died|diagnosed|injured|promoted|launched|opened|closed|no longer|no more|done with|anymore|used to|stopped|stop|gave up|now|nowadays|these days)\b/i;
/** Things done: the events LoCoMo-style questions ask about ("when did Sam run a race?"). */
export const EVENT_CUES =
  /\b(went|visited|attended|ran|painted|took|made|tried|read|saw|watched|met|traveled|travelled|celebrated|volunteered|baked|built|wrote|played|hiked|camped|organized|hosted|gave|received|participated|took part|competed|performed|presented|learned|researched|created|finished)\b/i;
export const PREFERENCE_CUES =
  /\b(love|loves|loved|like|likes|enjoy|enjoys|hate|hates|favorite|favourite|prefer|prefers|passionate|into|fan of|allergic|can't stand|dream|dreams)\b/i;
export const PLAN_CUES =
  /\b(going to|gonna|plan|plans|planning|will|want to|wants to|hope to|hoping to|thinking of|next (week|month|year)|someday|goal)\b/i;
export const IDENTITY_CUES =
  /\b(work|works|working|job|career|study|studies|studying|student|live|lives|living|family|kids?|children|son|daughter|husband|wife|partner|mom|mother|dad|father|sister|brother|pet|dog|cat|vegetarian|vegan|hobby|years? old|name is|born)\b/i;

/** Health: illnesses and recoveries are exactly the changing states memory must track. */
export const HEALTH_CUES =
  /\b(cold|flu|covid|fever|cough|sick|ill|injured|injury|pain|hurts|surgery|doctor|hospital|recovered|recovering|migraine|allergy|allergic|diagnosed|therapy|medicine|medication)\b/i;

const SMALL_TALK =
  /^(hi|hey|hello|thanks|thank you|bye|goodbye|see you|take care|good (morning|night|evening|to see)|nice|wow|cool|awesome|great|congrats|congratulations|that's (great|awesome|amazing|cool|so|really|wonderful|true)|sounds|glad|sorry|haha|lol|yeah|yes|no|ok|okay|sure|totally|absolutely|exactly|agreed|same|me too|right|oh|aw+|omg)\b/i;
const HEDGES =
  /\b(i (think|guess|mean|know|bet|hope so|suppose)|you know|know what i mean|i'm sure you|can't wait to hear)\b/i;
const TRIVIA =
  /\b(breakfast|lunch|dinner|snack|coffee|this morning|just now|right now|a minute ago|earlier today)\b/i;
/**
 * Adverbs of frequency and plural times of the week (closed classes): what is done "most days",
 * "every weekend" or "tuesdays" is a habit, and a habit is no trivia however small its thing
 * ("fast food for lunch most days").
 */
export const HABITUAL =
  /\b(every|each (?:day|week|month|year|morning|evening|night|weekend)|most (?:days|weeks|mornings|evenings|nights|weekends)|usually|always|often|daily|weekly|nightly|normally|regularly|twice a|three times a|(?:a|per) (?:day|week|month|night)|(?:mon|tues|wednes|thurs|fri|satur|sun)days|mornings|evenings|weekends)\b/i;
/** A word of the first person: the speaker speaks of themself. */
export const FIRST_PERSON = /\b(i|i'm|i've|i'd|i'll|my|me|mine|myself|we|we're|we've|our|us)\b/i;

export interface SalienceCues {
  score: number;
  cues: string[];
}

/** How memorable a declarative sentence said by its speaker is. */
export function salience(
  sentence: string,
  extras: { entities: number; times: number; numbers: number; things?: number; changeVerb?: boolean },
): SalienceCues {
  const cues: string[] = [];
  let score = 0;
  const add = (cue: string, weight: number) => {
    cues.push(cue);
    score += weight;
  };
  if (FIRST_PERSON.test(sentence)) add("first-person", 1);
  if (CHANGE_CUES.test(sentence) || extras.changeVerb) add("change", 1.5);
  if (EVENT_CUES.test(sentence)) add("event", 1);
  if (PREFERENCE_CUES.test(sentence)) add("preference", 1);
  if (PLAN_CUES.test(sentence)) add("plan", 0.75);
  if (IDENTITY_CUES.test(sentence)) add("identity", 1);
  if (HEALTH_CUES.test(sentence)) add("health", 1);
  // A habit is a lasting fact about the speaker ("swims three times a week", "tuesdays").
  if (HABITUAL.test(sentence)) add("habit", 0.5);
  if (extras.entities > 0) add("entity", Math.min(1, 0.5 * extras.entities));
  if (extras.times > 0) add("time", 0.5);
  if (extras.numbers > 0) add("number", 0.25);
  const content = contentTokens(sentence).length;
  if (content >= 4) add("content", 0.5);
  // One word says little ("I love it", "so tired"), unless it names who or what the speaker
  // has or is ("I have a dog", "I'm a teacher"), or what changed ("on metformin now"): extras.things.
  if (content < 2 && !extras.things) add("too-short", -3);
  if (SMALL_TALK.test(sentence.trim()) && score < 3) add("small-talk", -1.5);
  if (HEDGES.test(sentence)) add("hedge", -0.75);
  if (TRIVIA.test(sentence) && !CHANGE_CUES.test(sentence) && !extras.changeVerb && !HABITUAL.test(sentence))
    add("trivia", -1);
  return { score, cues };
}
