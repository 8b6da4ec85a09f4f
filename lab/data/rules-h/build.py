#!/usr/bin/env python3
"""Hand-written source of the rules-h set (cases.jsonl). Standard library only.

Usage: python3 build.py   (writes cases.jsonl next to this file)

A case is written as: id, style, partner, agent, its sessions and its expectations.
A session is (gap_days, "HH:MM", [turn texts]); the partner speaks first and the speakers
alternate. The first session of case k (its id number, 401-424) falls on
2023-01-03 + 7*(k-400) days; gap_days of a later session counts from the previous session's date.
Matchers: a list is {"all": list}; stop(habit) and change(new, old) build the class matchers.
The helpers, STOPW and CHGW are copied from lab/data/rules-g/build.py (which copied them from rules-d).
"""
import json
import os
from datetime import datetime, timedelta

# stop words: a memory about the habit that carries one of these is the stop, not the habit
STOPW = ["quit", "stop", "gave up", "given up", "give up", "giving up", "no longer", "anymore",
         "any more", "cut out", "cancel", "discontinu", "drop", "packed in", "kicked", "ditch",
         "ceas", "called it", "calling it", "done with", "n't", "not ", "never", "without",
         "used to", "delet", "left ", "sold", "finish", "no more", "unsubscrib", "ended",
         "relinquish", "retir", "resign", "former", "gone", "dont ", "didnt", "doesnt"]
# change words: a memory naming the old state together with one of these records the change
CHGW = ["used to", "former", "previous", "no longer", "anymore", "any more", "switch", "swap",
        "sold", "moved", "instead", "left ", "until", "stop", "quit", "replac", "traded",
        "transferred", "relocat", "resign", "changed", "these days", "nowadays", "gone from",
        "before", "earlier", "ex-", "not "]

CASES = []


def m(x):
    return {"all": x} if isinstance(x, list) else x


def case(cid, style, partner, agent, sessions, active=(), once=(), retired=()):
    cls = {"same": "same", "add": "addition", "chg": "change", "stop": "stop"}[cid.split("-")[0]]
    CASES.append(dict(id=cid, cls=cls, style=style, partner=partner, agent=agent,
                      sessions=sessions, active=[m(a) for a in active], once=[m(o) for o in once],
                      retired=[m(r) for r in retired]))


def stop(cid, style, partner, agent, sessions, habit):
    case(cid, style, partner, agent, sessions,
         active=[{"all": habit + [STOPW]}], retired=[{"all": habit, "none": STOPW}])


def change(cid, style, partner, agent, sessions, new, old, extra_none=()):
    none = [a for e in new for a in ([e] if isinstance(e, str) else e)] + list(extra_none) + CHGW
    case(cid, style, partner, agent, sessions, active=[new], retired=[{"all": old, "none": none}])



# ---------------------------------------------------------------- same

case("same-401", "plain", "Birte", "Kester", [
    (0, "17:40", ["My daughter Annika has started oboe lessons at school.",
                  "What a lovely instrument to choose. How is she getting on?",
                  "Lots of squeaks so far, but she is keen.",
                  "Squeaks are normal at the start. It gets better quickly."]),
    (11, "19:05", ["Annika practised her oboe for a whole hour last night and nobody had to ask her.",
                   "That is real motivation. You must be pleased."]),
], once=[["annika", "oboe"]])

case("same-402", "plain", "Caius", "Jago", [
    (0, "07:20", ["I'm a plumber. I work for a small firm called Tidewell.",
                  "Steady trade. Is it mostly call-outs or fitting jobs?"]),
    (8, "20:10", ["Long week. I had three burst pipes in two days.",
                  "January is hard on pipes. Are you on call this weekend?",
                  "No, thank goodness. I still plumb for Tidewell, and they keep the weekends fair.",
                  "Good to hear they look after their staff."]),
], once=[["tidewell", "plumb"]])

case("same-403", "plain", "Dorcas", "Una", [
    (0, "12:30", ["I live in a flat above a hardware store on Quarry Lane.",
                  "Handy if you ever need a screwdriver in a hurry."]),
    (14, "18:45", ["Still living above the hardware store on Quarry Lane and still happy there. They've put Christmas lights up downstairs.",
                   "That must make the street look cheerful at night."]),
], once=[["quarry lane"]])

case("same-404", "plain", "Faramond", "Ulf", [
    (0, "09:00", ["I have asthma, so I carry an inhaler everywhere.",
                  "Sensible. Does the cold make it worse?"]),
    (10, "21:15", ["How was your day?",
                   "Quiet, thanks for asking. Yours?",
                   "Hard, but fine. Just so you know, I have asthma and always carry an inhaler, in case I sound out of breath on a voice note.",
                   "Thanks for telling me. I will keep it in mind."]),
], once=[["asthma"]])

case("same-405", "chatty", "Gisela", "Imre", [
    (0, "19:30", ["Hiya!! 😊 What a weekend. My niece Henni came to stay, she's seven and an absolute whirlwind, we built a den in the living room and ate far too many pancakes lol",
                  "That sounds like the best kind of chaos. Did the den survive?",
                  "Barely 😂 she made me sleep in it",
                  "A true host, then."]),
    (13, "08:50", ["Morning! Guess what turned up in the post, a card from Henni, my seven-year-old niece, with a purple dragon on it 🐉 it's on the fridge now",
                   "A dragon card on the fridge is a proper honour."]),
], once=[["henni", ["7", "seven"]]])

case("same-406", "chatty", "Jolanta", "Wolcott", [
    (0, "16:05", ["ugh the school run today was a circus 🙈 anyway we finally picked up the car, a dark green Mitsubishi Outlander, second hand but it smells new-ish and the kids love the boot",
                  "Congratulations on the new wheels! Plenty of room for everyone?"]),
    (9, "10:40", ["So much to do this week, no appointments at least haha",
                  "Always a win. Anything fun planned?",
                  "Road trip to my cousin's on Saturday in the green Outlander, our Mitsubishi, packed with snacks and two very loud boys 😅",
                  "Safe travels, and good luck with the snack rationing."]),
], once=[["outlander"]])

case("same-407", "chatty", "Kasimir", "Rafferty", [
    (0, "20:20", ["ok so confession time: I have 12 bonsai trees on the kitchen windowsill and my partner says it's a jungle 🌳 the little pine-looking one is my favourite",
                  "Twelve is a serious collection! How long have you been at it?",
                  "About four years, started with one from a market and it spiralled",
                  "It usually does. They are addictive."]),
    (16, "21:00", ["Spent my whole Sunday pruning, all twelve bonsai got a trim ✂️ so satisfying honestly",
                   "There is something calming about that kind of careful work."]),
], once=[["bonsai", ["12", "twelve"]]])

case("same-408", "chatty", "Lucasta", "Saffi", [
    (0, "18:00", ["Hello hello! Long day at the shop, I work at a secondhand bookshop called Dog-Eared Pages and we got three boxes of old atlases in today 📚",
                  "What a fun delivery. Anything good in there?"]),
    (7, "17:35", ["Guess who found a signed first edition in the bargain bin at Dog-Eared Pages today?? me!! the perks of working in a bookshop 🎉",
                  "That is a brilliant find. Did it go straight to the display case?"]),
], once=[[["dog-eared", "dog eared"]]])

case("same-409", "terse", "Merritt", "Gregor", [
    (0, "22:10", ["new place. flat 4b kelso rd. top floor",
                  "Nice. How are the stairs treating you?"]),
    (12, "22:40", ["kelso rd flat still freezing. 4b gets no sun",
                   "Maybe a thick rug and a draught excluder would help."]),
], once=[["kelso", "4b"]])

case("same-410", "terse", "Nadezhda", "Osbert", [
    (0, "13:15", ["bday is 9 oct btw. turning 40",
                  "Noted. Any plans for the big one?",
                  "nope",
                  "Fair enough."]),
    (20, "13:40", ["reminder, my birthday is 9 oct. no fuss pls",
                   "Understood, no fuss."]),
], once=[["oct", ["9", "nine"]]])

case("same-411", "terse", "Petrea", "Zuriel", [
    (0, "07:05", ["son ilya is 3. playgroup mornings",
                  "Three is a fun age. Does he like playgroup?"]),
    (9, "19:55", ["long day",
                   "Want to talk about it?",
                   "ilya, 3, refused his wellies for an hour. that's it",
                   "That sounds exhausting. Tomorrow may go better."]),
], once=[["ilya", ["3", "three"]]])

case("same-412", "terse", "Romilly", "Ysella", [
    (0, "08:30", ["wfh tues and thurs. office rest of week",
                  "A good mix. Which days do you prefer?"]),
    (15, "08:25", ["at home today, tues. always wfh tues + thurs",
                   "Enjoy the short commute to the kettle."]),
], once=[["tue", "thu"]])

case("same-413", "typos", "Silvan", "Kester", [
    (0, "18:20", ["my dogs a colie called rufus hes 6 and mad about his ball",
                  "A collie with a ball habit, classic. Does he ever get tired?"]),
    (10, "18:55", ["rufus my colie jumped the fence agian chasing a squirel",
                   "Oh dear. Did he come back on his own?",
                   "ya eventualy, muddy as anything",
                   "Typical. Sounds like bath night."]),
], once=[["rufus", ["collie", "colie"]]])

case("same-414", "typos", "Tabitha", "Jago", [
    (0, "21:30", ["im a hairdreser at a salon called snip snap in the high st",
                  "Busy job. Are Saturdays the worst?"]),
    (12, "21:05", ["feet are killing me, 11 clients at snip snap today. hairdressin is no joke",
                   "Eleven is a lot. Put your feet up tonight."]),
], once=[["snip snap"]])

case("same-415", "typos", "Ulysses", "Una", [
    (0, "15:45", ["my brother lives in winipeg, minus 30 there this week lol",
                  "Brr. Does he like it?"]),
    (18, "16:10", ["talked to my bro in winnipeg last nite, still freezin there",
                   "Canadian winters are no joke."]),
], once=[[["winnipeg", "winipeg"], "bro"]])

case("same-416", "typos", "Wolfram", "Ulf", [
    (0, "19:10", ["i go bowlin evry tusday with the lads from work",
                  "Good way to end a Tuesday. Are you any good?",
                  "average lol",
                  "Average is respectable."]),
    (7, "22:35", ["just back from bowling, its our tuesday thing, got a strike finaly",
                  "A strike! Well done."]),
], once=[["bowl", ["tue", "tus"]]])

case("same-417", "formal", "Yestin", "Imre", [
    (0, "10:00", ["Good morning. I should mention that I serve as secretary of the Ambleford Rambling Club, which takes up a fair amount of my correspondence.",
                  "That sounds like a rewarding role. How many members does the club have?",
                  "Roughly sixty, of whom perhaps twenty walk regularly.",
                  "A healthy number for a walking club."]),
    (21, "10:30", ["As secretary of the Ambleford Rambling Club, I must draft the spring programme this week, and I would welcome a little help with the wording.",
                   "Happy to help. Shall we start with the dates?"]),
], once=[["ambleford", "secretary"]])

case("same-418", "formal", "Zelda", "Wolcott", [
    (0, "14:20", ["I ought to explain that my mother, who is 88, lives with us, so our evenings are arranged around her routine.",
                  "That is a generous arrangement. How is she keeping?"]),
    (13, "14:05", ["My mother is eighty-eight and lives with us, as I said last time; she has asked whether you might suggest some large-print novels.",
                   "Of course. Does she prefer mysteries or something gentler?"]),
], once=[[["88", "eighty-eight", "eighty eight"], ["mother", "mum"]]])

case("same-419", "formal", "Bathsheba", "Rafferty", [
    (0, "17:00", ["I teach mathematics at Larchmont Grammar, where I have been for eleven years.",
                  "That is a long and steady stretch. Do you teach the older years?"]),
    (9, "16:50", ["The marking is heavy this term.",
                  "I can imagine. Is it exam season already?",
                  "Mock examinations, yes. Teaching mathematics at Larchmont Grammar means the spring is never quiet.",
                  "Then I hope the summer makes up for it."]),
], once=[["larchmont"]])

case("same-420", "formal", "Cosimo", "Saffi", [
    (0, "19:40", ["At home my wife and I speak Catalan, although at work I use English almost exclusively.",
                  "Two languages every day keeps the mind nimble."]),
    (17, "20:05", ["Our household language remains Catalan, and we intend the children to grow up with it.",
                   "That is a wonderful gift to give them."]),
], once=[["catalan"]])

case("same-421", "indirect", "Delphine", "Gregor", [
    (0, "21:45", ["The house is so quiet tonight.",
                  "Is everyone out?",
                  "Corwin is on shift. He's a firefighter, four nights on and four off.",
                  "That must take some getting used to."]),
    (12, "07:30", ["Corwin came home reeking of burnt timber again this morning, the joys of being married to a firefighter.",
                   "I hope it was a quiet night for him otherwise."]),
], once=[["corwin", "firefight"]])

case("same-422", "indirect", "Emrys", "Osbert", [
    (0, "18:30", ["Guess who chewed through my laptop charger? Clementine, my rabbit. Third one this year.",
                  "Oh no. Is she all right?",
                  "She's fine, the charger is not.",
                  "Maybe a cable guard would help."]),
    (19, "18:10", ["Spent the evening rabbit-proofing the sitting room for Clementine, my rabbit, because she's found the skirting boards now.",
                   "She is keeping you busy."]),
], once=[["clementine", "rabbit"]])

case("same-423", "indirect", "Gwynfor", "Zuriel", [
    (0, "11:15", ["Saw a photo of the old pier today and felt homesick.",
                  "Which pier was it?",
                  "Aberystwyth. I grew up there, two streets from the sea.",
                  "A childhood by the sea leaves a mark."]),
    (24, "11:40", ["My cousin sent me a jar of sea air from Aberystwyth as a joke, since I grew up there and moan about missing it.",
                   "That is a thoughtful joke."]),
], once=[["aberystwyth"]])

case("same-424", "indirect", "Honorine", "Ysella", [
    (0, "15:00", ["What a day.",
                  "What happened?",
                  "Eleven scans back to back. I'm a sonographer and half the town seems to be pregnant at once.",
                  "That is a lot of happy news in one day."]),
    (8, "15:20", ["My nephew asked what I do, so I showed him a picture of a baby scan and told him I'm a sonographer. He was not impressed.",
                  "Hard crowd. He will appreciate it one day."]),
], once=[["sonograph"]])

# ---------------------------------------------------------------- addition

case("add-401", "plain", "Isolde", "Kester", [
    (0, "18:00", ["We have a terrier called Pogo.",
                  "Terriers are full of character. How old is Pogo?",
                  "Four, and still acts like a puppy.",
                  "That energy rarely fades with terriers."]),
    (21, "18:30", ["We adopted a cat last weekend. Her name is Minnow, and she and Pogo are slowly making friends.",
                   "Slow is good. Let them set the pace."]),
], active=[["pogo"], ["minnow"]])

case("add-402", "plain", "Jethro", "Jago", [
    (0, "19:00", ["I work as a carpenter, mostly fitted cupboards and staircases.",
                  "Good solid trade. Are you self-employed?"]),
    (18, "23:30", ["I'm tired tonight.",
                   "Long day?",
                   "I took a second job on weekend nights as a bartender at the Crown and Anchor. The carpentry still pays most of the bills.",
                   "Two jobs is a lot. Make sure you get some rest."]),
], active=[["carpent"], ["bartend"]])

case("add-403", "plain", "Kunigunde", "Una", [
    (0, "12:00", ["My sister Brunhild lives in Graz.",
                  "Graz is a pretty city. Do you visit often?"]),
    (15, "12:20", ["My other sister, Wiltrud, has just moved to Linz.",
                   "So you have family in two Austrian cities now."]),
], active=[["brunhild"], ["wiltrud"]])

case("add-404", "plain", "Leofric", "Ulf", [
    (0, "20:45", ["I play the banjo in my spare time.",
                  "Bluegrass, or something else?"]),
    (25, "20:30", ["I've taken up woodcarving as well. I made a little spoon this week.",
                   "A first spoon is a proud moment. Still playing the banjo too?",
                   "Every evening.",
                   "Good, the two fit well together."]),
], active=[["banjo"], [["woodcarv", "wood carv"]]])

case("add-405", "chatty", "Mireva", "Imre", [
    (0, "10:15", ["Happy Saturday!! ☀️ Just got back from litter picking with the Tidy Tern group down on the beach, we filled eleven bags, mostly crisp packets and one very sad flip-flop",
                  "Eleven bags is a great haul. How often does the group meet?",
                  "Every second Saturday, I never miss it 😊",
                  "That is real commitment."]),
    (14, "09:05", ["Busy busy! On top of the litter picks I've signed up as a marshal at the Sunday fun run in the park, hi-vis vest and everything 🦺 so now my whole weekend is volunteering haha",
                   "You will be the most cheerful marshal there."]),
], active=[["litter"], ["marshal"]])

case("add-406", "chatty", "Nerissa", "Wolcott", [
    (0, "08:00", ["Morning! Sitting in the garden with my copy of Wired, I've subscribed for years and it still arrives crumpled every single month 🙄",
                  "The post can be rough on magazines. Still worth it?"]),
    (20, "08:15", ["So my aunt bought me a subscription to The Oldie for my birthday as a joke 😂 and honestly I love it, so that's two magazines landing on the mat now, Wired and The Oldie",
                   "That is a fun pairing. Very different reading."]),
], active=[["wired"], ["oldie"]])

case("add-407", "chatty", "Oriana", "Rafferty", [
    (0, "16:40", ["Hiya, quick one, my son Lorne has a cough again and I'm trying to work out if it's playgroup germs or the damp flat 😩",
                  "Poor thing. Has it been going long?"]),
    (30, "03:10", ["It's 3am and I'm awake feeding our new baby girl, Maisie!! 💕 born last Tuesday, Lorne is already trying to share his toys with her",
                   "Congratulations! Welcome, Maisie. How are you holding up?",
                   "Tired but so happy",
                   "That sounds exactly right."]),
], active=[["lorne"], ["maisie"]])

case("add-408", "chatty", "Peregrine", "Saffi", [
    (0, "13:30", ["Mud everywhere today lol, took the Land Rover Defender up the farm track and it loved it 🚙",
                  "Sounds like the right vehicle for the job."]),
    (26, "14:00", ["Treated myself!!! A second-hand Benelli motorbike, red, sounds like thunder 🏍️ the Defender stays for the farm runs of course",
                   "Congratulations. Be safe on the roads."]),
], active=[["defender"], ["benelli"]])

case("add-409", "terse", "Septimus", "Gregor", [
    (0, "17:20", ["got 2 alpacas. field out back",
                  "Alpacas! Are they friendly?",
                  "one is. one spits",
                  "Fifty percent is not bad."]),
    (19, "17:45", ["bought a llama too. guards the alpacas",
                   "A guard llama, very sensible."]),
], active=[["alpaca"], ["llama"]])

case("add-410", "terse", "Theodora", "Osbert", [
    (0, "06:40", ["dog groomer. mon-fri",
                  "Do you get bitten much?"]),
    (11, "23:55", ["2nd job now. stacking shelves at aldi sat nights",
                   "That is a long week. Still grooming during the week?",
                   "yes. both",
                   "Make sure you rest on Sundays."]),
], active=[["groom"], ["aldi"]])

case("add-411", "terse", "Winslow", "Zuriel", [
    (0, "21:00", ["learning mandarin. 2 yrs in",
                  "Impressive. Tones still tricky?"]),
    (23, "21:10", ["started korean too. hangul is easy. mandarin tones still not",
                   "Hangul does have a reputation for being quick to learn."]),
], active=[["mandarin"], ["korean"]])

case("add-412", "terse", "Yolande", "Ysella", [
    (0, "19:50", ["netball tues nights. goal defence",
                  "A key position. Good team?"]),
    (12, "20:05", ["joined a rounders team too. thursdays. still doing netball",
                   "Busy week of team sports."]),
], active=[["netball"], ["rounders"]])

case("add-413", "typos", "Zenobia", "Kester", [
    (0, "22:00", ["my cat smudge sleeps on my head evry nite lol",
                  "A warm hat at least. How old is Smudge?"]),
    (16, "21:40", ["we got anotehr cat!! a kitten called pickle, smudge is NOT impresed",
                   "Give them a little time, they usually come round."]),
], active=[["smudge"], ["pickle"]])

case("add-414", "typos", "Alaric", "Jago", [
    (0, "14:10", ["i colect vintage postcards, got about 400 now mostly seaside ones",
                  "That is a big collection. Any favourites?"]),
    (22, "14:35", ["so ive started colecting old cameras aswell, found a 1960s one at a fair for a fiver",
                   "A good price. Does it still work?",
                   "no idea yet lol",
                   "Half the fun is finding out."]),
], active=[["postcard"], [["camera", "camra"]]])

case("add-415", "typos", "Brigid", "Una", [
    (0, "08:05", ["my eldest goes to brookvale primary, hes in yr 4",
                  "How is he finding year four?"]),
    (13, "09:15", ["big day, my youngest just started at larkspur preschool, cried at the gate, me not her lol",
                   "That first drop-off is hard on parents."]),
], active=[["brookvale"], ["larkspur"]])

case("add-416", "typos", "Cyrille", "Ulf", [
    (0, "11:00", ["im on warfarin since the clot last yr so i get a check-up evry month",
                  "Monthly checks are a nuisance but worth it."]),
    (17, "11:25", ["doc put me on a statin aswell for the colesterol",
                   "Did they mention any side effects to watch for?",
                   "just aches maybe",
                   "Worth keeping an eye on."]),
], active=[["warfarin"], ["statin"]])

case("add-417", "formal", "Euphemia", "Imre", [
    (0, "10:30", ["I am a trustee of the Marlcombe Museum Trust, which meets quarterly.",
                  "That must involve a good deal of reading before each meeting."]),
    (28, "10:45", ["I have also been appointed a trustee of the Ebbsfield Community Orchard, which I confess is somewhat muddier than the museum.",
                   "Congratulations on the appointment. Two boards will keep you busy."]),
], active=[["marlcombe"], ["ebbsfield"]])

case("add-418", "formal", "Godric", "Wolcott", [
    (0, "16:00", ["Our family home is in Dorset, near the coast.",
                  "A lovely part of the country."]),
    (30, "16:20", ["You may be interested to hear that we have purchased a holiday let in Whitby, which we shall rent out for most of the year.",
                   "That is a big step. Will you keep the Dorset house as your main home?",
                   "Indeed, Dorset remains our home.",
                   "Then you have the best of both coasts."]),
], active=[["dorset"], ["whitby"]])

case("add-419", "formal", "Hesketh", "Rafferty", [
    (0, "15:30", ["I play croquet at the Ashby club on Wednesday afternoons.",
                  "A civilised way to spend an afternoon."]),
    (18, "15:45", ["I have recently taken up real tennis as well, at a court some forty minutes' drive away; croquet continues on Wednesdays.",
                   "Real tennis is a rare game. How are you finding the rules?"]),
], active=[["croquet"], ["real tennis"]])

case("add-420", "formal", "Kilian", "Saffi", [
    (0, "12:40", ["Our granddaughter Perdita was born in March, and we are quite besotted.",
                  "Congratulations. Is she your first grandchild?"]),
    (40, "12:10", ["I am delighted to tell you that we have welcomed a grandson, Anatole, a younger cousin for Perdita.",
                   "Wonderful news. Congratulations to the whole family."]),
], active=[["perdita"], ["anatole"]])

case("add-421", "indirect", "Lavender", "Gregor", [
    (0, "18:10", ["Finally Wednesday.",
                  "Any plans for the evening?",
                  "Tango lessons! Wednesdays are tango, always.",
                  "Have fun, and mind your partner's toes."]),
    (20, "18:20", ["I'm zonked.",
                   "Busy day?",
                   "Tango last night and now Thursdays are for my new sign language class, so I'm out two nights running.",
                   "Sign language is such a useful skill."]),
], active=[["tango"], ["sign language"]])

case("add-422", "indirect", "Melisande", "Osbert", [
    (0, "20:00", ["Gordo refused his worms tonight, which is very unlike my axolotl.",
                  "Maybe the water is a bit warm?"]),
    (27, "20:25", ["I came home with a leopard gecko today. I only went in for axolotl food, I swear.",
                   "That is quite the impulse buy. Has the gecko got a name?",
                   "Not yet. Ideas welcome.",
                   "Something spotty, perhaps."]),
], active=[["axolotl"], ["gecko"]])

case("add-423", "indirect", "Ophelia", "Zuriel", [
    (0, "13:20", ["Deadline day.",
                  "For which project?",
                  "A children's book cover. I'm a freelance illustrator, so it's always something.",
                  "Good luck with it."]),
    (15, "13:05", ["I'm juggling more than usual. Some copywriting work came my way on the side, and the illustration jobs keep coming too.",
                   "Two streams of work is good security."]),
], active=[["illustrat"], ["copywrit"]])

case("add-424", "indirect", "Pasquale", "Ysella", [
    (0, "19:15", ["I'm eating pizza tonight, what else.",
                  "Why, what else?",
                  "My brother Enzo runs a pizzeria in town, so I eat there for free.",
                  "That is a good deal."]),
    (33, "19:40", ["Big family dinner. My other brother, Ettore, flew in from Milan, first time in years.",
                   "What a nice reunion. Did it get loud?"]),
], active=[["enzo"], ["ettore"]])

# ---------------------------------------------------------------- change

change("chg-401", "plain", "Rosalie", "Kester", [
    (0, "18:00", ["I live in Exeter, close to the quay.",
                  "A nice spot. Do you walk by the river much?"]),
    (35, "18:30", ["We moved to Bristol last month. The flat is smaller but the view is great.",
                   "A new city is exciting. Have you found a favourite café yet?"]),
], new=["bristol"], old=["exeter"])

change("chg-402", "plain", "Sabine", "Jago", [
    (0, "08:15", ["I'm a clerk at Hartfield Savings, in the mortgages office.",
                  "Steady work. Do you like it?",
                  "It's fine. Lots of forms.",
                  "Forms are the price of steady work."]),
    (40, "16:00", ["I left Hartfield Savings in June. I walk dogs for a living now, six dogs a day.",
                   "What a change! You must be outdoors all day."]),
], new=[["walk dogs", "dog walk", "walking dogs", "walks dogs"]], old=["hartfield"])

change("chg-403", "plain", "Tobiah", "Una", [
    (0, "07:45", ["I drive a Ford Focus. It's twelve years old.",
                  "Twelve years is a good run for a car."]),
    (30, "07:50", ["My new car is a Toyota Prius. It's very quiet.",
                   "Quiet and cheap to run, I hope.",
                   "Yes. The old Ford Focus was sold for scrap.",
                   "It had earned its rest."]),
], new=["prius"], old=["ford", "focus"])

change("chg-404", "plain", "Umberto", "Ulf", [
    (0, "15:10", ["My daughter goes to Fernhill Primary. She is in year two.",
                  "Does she like her class?"]),
    (45, "15:30", ["My daughter changed schools. She is at Oakridge Primary now, closer to our house.",
                   "A shorter walk to school is a gift."]),
], new=["oakridge"], old=["fernhill"])

change("chg-405", "chatty", "Vivienne", "Imre", [
    (0, "12:00", ["Lunch break rant incoming 🙃 my bank is Revolut and the app logged me out three times today while I was trying to pay my window cleaner",
                  "Frustrating. Did it sort itself out?",
                  "eventually lol",
                  "Apps have their bad days."]),
    (28, "12:15", ["Update on the banking saga 😅 I've switched everything over to Chase, salary, bills, the lot, and so far the app behaves itself",
                   "Fingers crossed it stays that way."]),
], new=["chase"], old=["revolut"])

change("chg-406", "chatty", "Xavi", "Wolcott", [
    (0, "17:00", ["Sunday was brutal ⚽ I play centre back for Red Lion FC, we lost 4-1 in the rain and I've got bruises on my bruises",
                  "Ouch. At least it can only go up from there."]),
    (60, "17:20", ["Big news!! I've moved clubs, I'm at Kingsmead Rovers now, better pitch, better changing rooms and we actually win sometimes 😂",
                   "A fresh start. How are the new teammates?",
                   "Sound lads, the skipper's a legend",
                   "Good to hear you have settled in."]),
], new=["kingsmead"], old=["red lion"])

change("chg-407", "chatty", "Yelena", "Rafferty", [
    (0, "19:00", ["Cooking tonight, lentil stew 🌱 We're a veggie household here. No meat for about five years!",
                  "Lentil stew is perfect for a cold night."]),
    (50, "19:30", ["Funny thing, I'm eating meat again these days 🍖 the doctor said my iron was low and honestly I missed a good steak",
                   "Whatever works for your health. How does it feel?"]),
], new=["meat", ["again", "these days", "now"]], old=[["veggie", "vegetarian"]])

change("chg-408", "chatty", "Zacharias", "Saffi", [
    (0, "21:00", ["Date night with Marnie, my girlfriend, we're trying the new Thai place in town 🍜 she always orders for both of us",
                  "Sounds fun. Enjoy the food!"]),
    (42, "21:15", ["Bit of news 😊 Marnie and I aren't together any more, we ended it on good terms, and I'm seeing someone new, her name is Leonie and she makes me laugh a lot",
                   "I'm glad you're in a good place. Leonie sounds lovely."]),
], new=["leonie"], old=["marnie"], extra_none=["split", "broke up", "ended"])

change("chg-409", "terse", "Abelard", "Gregor", [
    (0, "22:00", ["live in leith. tiny flat by the shore",
                  "Nice area. Noisy?"]),
    (30, "22:20", ["moved to morningside. 5 min from the meadows",
                   "Green space. Lovely."]),
], new=["morningside"], old=["leith"])

change("chg-410", "terse", "Benedicta", "Osbert", [
    (0, "05:50", ["pick-packer at dunmore warehouse. nights",
                  "Night shifts are tough. How long have you done it?"]),
    (25, "06:10", ["new job. forklift driver at holloway freight",
                   "Congratulations. Did you need a licence?",
                   "yes passed last month",
                   "Well done."]),
], new=["holloway"], old=["dunmore"])

change("chg-411", "terse", "Clovis", "Zuriel", [
    (0, "09:00", ["glasses. thick ones. -6",
                  "Heavy prescription. Do they slide down your nose?"]),
    (21, "09:30", ["contacts now instead of the glasses. weird but good",
                   "It takes a few days to get used to them."]),
], new=[["contacts", "contact lens"]], old=["glasses"])

change("chg-412", "terse", "Damaris", "Ysella", [
    (0, "10:40", ["gp is elm tree surgery. awful phone line",
                  "That sounds frustrating."]),
    (20, "11:00", ["registered at riverside medical now. got an appt same day",
                   "Same-day appointments are rare, well done."]),
], new=["riverside"], old=["elm tree"])

change("chg-413", "typos", "Eulalia", "Kester", [
    (0, "20:00", ["i live with my mum in stockport, saving up for a deposit",
                  "Saving is hard work. How is it going?"]),
    (60, "20:30", ["finaly moved out of stockport!! got my own place in didsbury",
                   "Congratulations on your own place!"]),
], new=["didsbury"], old=["stockport"])

change("chg-414", "typos", "Fitzroy", "Jago", [
    (0, "18:30", ["i drive a van for parcelfast, 120 drops a day sometimes",
                  "That is a lot of doorsteps."]),
    (35, "18:50", ["im a postie now, way beter than parcelfast ever was",
                   "Proper hours, I hope."]),
], new=["postie"], old=["parcelfast"])

change("chg-415", "typos", "Gunnar", "Una", [
    (0, "10:00", ["my lad plays for hoylake juniers, under 11s",
                  "Does he play in defence or up front?"]),
    (40, "10:20", ["we moved him to west kirby colts, beter coach",
                   "A good coach makes all the difference.",
                   "ya hes loving it",
                   "Great to hear."]),
], new=[["west kirby", "colts"]], old=["hoylake"])

change("chg-416", "typos", "Hypatia", "Ulf", [
    (0, "19:00", ["im doin slimming world, weigh in is wensday",
                  "How is it going so far?"]),
    (30, "19:20", ["swapped to weight watchers, the points thing suits me beter",
                   "Whatever works for you is the right one."]),
], new=[["weight watchers", "weightwatchers"]], old=["slimming world"])

change("chg-417", "formal", "Ieuan", "Imre", [
    (0, "09:30", ["I am a solicitor with Bramhall & Price, a firm of some forty partners in the city.",
                  "A substantial firm. What area of law do you practise?",
                  "Chiefly commercial property.",
                  "A busy field."]),
    (55, "09:45", ["I have recently accepted a position as in-house counsel at Trevanion Shipping, and my last day at Bramhall & Price was on Friday.",
                   "Congratulations on the new post."]),
], new=["trevanion"], old=["bramhall"])

change("chg-418", "formal", "Jerusha", "Wolcott", [
    (0, "14:00", ["Our two children attend St Werburgh's, a small school at the end of our road.",
                  "Having school so close must make mornings easier."]),
    (70, "14:20", ["I should update you: the children have transferred to Highcliffe School, as St Werburgh's could no longer offer the support our younger one needs.",
                   "I hope the move goes smoothly for them both."]),
], new=["highcliffe"], old=["werburgh"])

change("chg-419", "formal", "Konstantin", "Rafferty", [
    (0, "20:10", ["I reside in Hamburg, where I have lived for most of my adult life.",
                  "A fine city. Do you enjoy the harbour?"]),
    (45, "20:30", ["Since my relocation to Leipzig in the spring, I have found the pace of life considerably gentler.",
                   "Leipzig has a wonderful musical heritage, I believe.",
                   "It does indeed.",
                   "I hope you are settling in well."]),
], new=["leipzig"], old=["hamburg"])

change("chg-420", "formal", "Leontine", "Saffi", [
    (0, "18:00", ["I conduct the Fairmile Brass Band, which rehearses on Tuesday evenings.",
                  "That must be a joyful job, if a loud one."]),
    (40, "18:15", ["I have handed the Fairmile baton to my deputy and now conduct the Ottery Chamber Orchestra instead, a much quieter proposition.",
                   "Congratulations on the new ensemble."]),
], new=["ottery"], old=["fairmile"])

change("chg-421", "indirect", "Mordecai", "Gregor", [
    (0, "19:00", ["Rain again in Newport, where I live. Umbrella number three this month.",
                  "Maybe invest in a sturdier one?"]),
    (50, "19:20", ["Since moving to Cardiff I walk to work, and the new office is five minutes from my door.",
                   "Walking to work is a real luxury."]),
], new=["cardiff"], old=["newport"])

change("chg-422", "indirect", "Nathaniel", "Osbert", [
    (0, "08:00", ["The Saab is making that noise again.",
                  "Which noise?",
                  "A grinding one. My old Saab is twenty years old, so I forgive it.",
                  "Maybe worth a garage visit."]),
    (40, "08:20", ["Morning!",
                   "Morning. How's the car these days?",
                   "The Saab finally gave out and I replaced it with a Kia Ceed.",
                   "Reliable choice."]),
], new=["ceed"], old=["saab"], extra_none=["gave out"])

change("chg-423", "indirect", "Orlaith", "Zuriel", [
    (0, "07:30", ["Rushing this morning, I have to drop my daughter at Puddle Duck creche by eight.",
                  "Good luck with the traffic!"]),
    (35, "07:40", ["Calmer morning today.",
                   "How come?",
                   "My daughter goes to a childminder now, just down the road, instead of Puddle Duck.",
                   "That must save a lot of time."]),
], new=["childminder"], old=["puddle duck"])

change("chg-424", "indirect", "Phineas", "Ysella", [
    (0, "16:00", ["I spend all day in the archive for my PhD at Durham.",
                  "What is your research on?"]),
    (60, "16:20", ["My doctoral mentor got a job at York, so I've transferred my PhD there with her.",
                   "A big change. Are you moving too?",
                   "Yes, found a room near the walls.",
                   "Lovely city to study in."]),
], new=["york"], old=["durham"])

# ---------------------------------------------------------------- stop

stop("stop-401", "plain", "Rosalyn", "Kester", [
    (0, "06:30", ["I go to a spin class three mornings a week.",
                  "Early starts! Do you enjoy it?",
                  "I do. The music helps.",
                  "Good music makes all the difference."]),
    (30, "07:45", ["I've stopped going to spin class. My back was complaining.",
                   "Listening to your back is wise. Anything gentler in mind?"]),
], habit=["spin"])

stop("stop-402", "plain", "Sylvester", "Jago", [
    (0, "18:40", ["I have a pint of stout after work most days.",
                  "A classic way to unwind."]),
    (24, "18:20", ["How are you?",
                   "Good, thanks. And you?",
                   "Good. I've given up the stout. I feel better for it already.",
                   "That is great to hear."]),
], habit=["stout"])

stop("stop-403", "plain", "Valentin", "Una", [
    (0, "22:15", ["I pay for a Headspace subscription and use it before bed.",
                  "Does it help you sleep?"]),
    (40, "22:30", ["I cancelled Headspace last week. I use a free podcast now.",
                   "Free is a good price."]),
], habit=["headspace"])

stop("stop-404", "plain", "Wilfrid", "Ulf", [
    (0, "21:00", ["I play cribbage at the pub on Fridays.",
                  "Are you the one to beat?"]),
    (35, "20:40", ["No more cribbage for me. The pub changed hands and the crowd moved on.",
                   "Shame. Maybe you can find another table somewhere."]),
], habit=["cribbage"])

stop("stop-405", "chatty", "Alphonse", "Imre", [
    (0, "19:20", ["Evening!! 🌆 walked 12k steps today but only because I play Pokémon Go every evening round the park lol, caught a shiny one too",
                  "Ha, sneaky exercise. Congratulations on the shiny.",
                  "my proudest moment of the week tbh",
                  "As it should be."]),
    (45, "19:35", ["So I finally deleted Pokémon Go 😅 it was eating my evenings and my battery, now I just walk and listen to audiobooks",
                   "Sounds like a calmer evening routine."]),
], habit=[["pokemon", "pokémon"]])

stop("stop-406", "chatty", "Bertil", "Wolcott", [
    (0, "08:10", ["Morning! Grabbing my usual doughnut from Greggs on the way in 🍩 it's basically a ritual at this point, jam one every single morning",
                  "Every ritual deserves a treat."]),
    (50, "08:30", ["Proud of myself!! I've knocked the Greggs doughnuts on the head, not had one in a month 💪 my belt is thanking me",
                   "A month is impressive. How are the mornings without the ritual?"]),
], habit=[["doughnut", "donut"]])

stop("stop-407", "chatty", "Corisande", "Rafferty", [
    (0, "07:15", ["I read the Daily Mail every morning with my toast, I know I know 🙈 but my dad read it and it's a habit",
                  "Family habits are hard to shake."]),
    (30, "07:30", ["Big moment, I cancelled my Daily Mail subscription 😅 reading the local paper online instead and my mood is grateful",
                   "Good for you. Is the local paper any good?",
                   "surprisingly yes!",
                   "A nice surprise."]),
], habit=["daily mail"])

stop("stop-408", "chatty", "Eberhard", "Saffi", [
    (0, "21:30", ["Just got back from the sauna, I go after work every Thursday and honestly it's the best hour of my week 🧖",
                  "That sounds blissful."]),
    (60, "21:40", ["Change of routine, I've packed in the sauna, the place doubled its prices and it's just not worth it 😤",
                   "That is quite a jump in price. Maybe you will find another one."]),
], habit=["sauna"])

stop("stop-409", "terse", "Fulvia", "Gregor", [
    (0, "23:10", ["jigsaw every night. 1000 pieces",
                  "Relaxing. What picture?"]),
    (28, "23:30", ["done with jigsaws. cat kept eating pieces",
                   "That is a fair reason."]),
], habit=["jigsaw"])

stop("stop-410", "terse", "Hildebrand", "Osbert", [
    (0, "22:45", ["pub quiz tues. team of 4",
                  "Do you usually win?",
                  "sometimes",
                  "Good odds."]),
    (35, "22:50", ["quit the pub quiz. team fell apart",
                   "Pity. Maybe a new team one day."]),
], habit=["quiz"])

stop("stop-411", "terse", "Isidore", "Zuriel", [
    (0, "20:00", ["rugby training tues and thurs. prop",
                  "Props take a beating."]),
    (40, "20:10", ["gave up rugby. knees",
                   "Knees matter. Good call."]),
], habit=["rugby"])

stop("stop-412", "terse", "Juliana", "Ysella", [
    (0, "16:20", ["on snapchat all day. streaks with everyone",
                  "Streaks can be addictive."]),
    (20, "16:40", ["deleted snapchat. bye streaks",
                   "Bold move. How does it feel?",
                   "quiet",
                   "Quiet can be nice."]),
], habit=["snapchat"])

stop("stop-413", "typos", "Lucius", "Kester", [
    (0, "08:00", ["i get a lucozade evry mornin on the way to site",
                  "A sweet start to the day!"]),
    (30, "08:15", ["gave up lucozade, my teeth were complaining lol",
                   "Your teeth will thank you."]),
], habit=["lucozade"])

stop("stop-414", "typos", "Minerva", "Jago", [
    (0, "18:45", ["i go to boxercise at the comunity hall on mondays, its brutal",
                  "Brutal but fun?"]),
    (25, "19:00", ["hows things",
                   "Fine, thanks. You?",
                   "not bad. i quit boxercise, my wrist is wrecked",
                   "Sorry to hear about your wrist."]),
], habit=["boxercise"])

stop("stop-415", "typos", "Neville", "Una", [
    (0, "22:30", ["i play the fruit machines at the pub most nites, won 20 quid tonite",
                  "Lucky night!"]),
    (45, "22:40", ["i dont play the fruit machines anymore, was loosing too much",
                   "That sounds like a wise decision."]),
], habit=["fruit machine"])

stop("stop-416", "typos", "Prudence", "Ulf", [
    (0, "21:50", ["im on ebay evry nite selling old clothes and bits, made 60 quid this week",
                  "Decluttering and earning, nice."]),
    (30, "22:00", ["stopped selling on ebay, postage fees got silly",
                   "Fees can eat up all the profit."]),
], habit=["ebay"])

stop("stop-417", "formal", "Vernon", "Imre", [
    (0, "13:00", ["I attend the weekly Rotary Club luncheon, which I have enjoyed for many years.",
                  "It must be a good way to keep in touch with people."]),
    (50, "13:20", ["I have resigned from the Rotary Club, after a disagreement over the direction of its charitable work.",
                   "I am sorry it came to that."]),
], habit=["rotary"])

stop("stop-418", "formal", "Agnetha", "Wolcott", [
    (0, "09:10", ["I take cod liver oil every morning, as my mother did.",
                  "A traditional habit."]),
    (40, "09:20", ["On my doctor's advice, I have discontinued the cod liver oil, as it may interfere with another medication.",
                   "Wise to follow that advice."]),
], habit=["cod liver"])

stop("stop-419", "formal", "Bernadine", "Rafferty", [
    (0, "11:00", ["We employ a cleaner, Mrs Pardoe, who comes every Tuesday morning.",
                  "That must be a help with a large house."]),
    (35, "11:15", ["We no longer employ a cleaner; Mrs Pardoe has moved away and we have decided to manage ourselves.",
                   "I hope it is not too much extra work."]),
], habit=["cleaner"])

stop("stop-420", "formal", "Cuthbert", "Saffi", [
    (0, "15:00", ["I am a member of the National Trust, and we visit one of its houses most Sundays.",
                  "A lovely way to spend a Sunday."]),
    (55, "15:10", ["I should tell you that I cancelled my National Trust membership this month, as my knees make the long walks difficult.",
                   "I am sorry to hear about your knees."]),
], habit=["national trust"])

stop("stop-421", "indirect", "Evelina", "Gregor", [
    (0, "07:00", ["Slow start today.",
                  "What does your usual morning look like?",
                  "I scroll Reddit for an hour in bed, then tea and the news.",
                  "That is one way to ease into the day."]),
    (38, "07:10", ["I'm up earlier these days.",
                   "What changed?",
                   "Reddit's gone from my phone, so the hour in bed goes on reading a real book.",
                   "A good trade."]),
], habit=["reddit"])

stop("stop-422", "indirect", "Ferdinand", "Osbert", [
    (0, "00:30", ["Just back from the pub. Friday means the late-night kebab on the walk home.",
                  "A weekend tradition, then."]),
    (45, "23:45", ["Home early tonight.",
                   "No late one?",
                   "No more Friday kebabs. My doctor showed me my cholesterol numbers.",
                   "That would do it."]),
], habit=["kebab"])

stop("stop-423", "indirect", "Gertrud", "Zuriel", [
    (0, "18:00", ["Mondays are chaos.",
                  "Why Mondays?",
                  "I run the Brownie pack at the village hall. Twenty girls and a lot of glitter.",
                  "Glitter gets everywhere."]),
    (52, "18:15", ["I've given up the Brownies and handed the pack to a younger leader, after nine years.",
                   "Nine years is a long service."]),
], habit=["brownie"])

stop("stop-424", "indirect", "Horatio", "Ysella", [
    (0, "19:30", ["Back from my evening walk with Mrs Finch's spaniel. I take him out every evening for her.",
                  "Very kind of you."]),
    (30, "19:45", ["What a quiet evening.",
                   "No walk?",
                   "I don't walk the spaniel any more. Mrs Finch moved to her daughter's and took him with her.",
                   "You must miss him."]),
], habit=["spaniel"])

# ---------------------------------------------------------------- write

def build():
    out = []
    for c in CASES:
        k = int(c["id"].split("-")[1])
        day = datetime(2023, 1, 3) + timedelta(days=7 * (k - 400))
        sessions = []
        for si, (gap, hm, texts) in enumerate(c["sessions"]):
            if si:
                day += timedelta(days=gap)
            turns = [{"speaker": c["partner"] if i % 2 == 0 else c["agent"], "text": t}
                     for i, t in enumerate(texts)]
            sessions.append({"at": day.strftime("%Y-%m-%d") + "T" + hm, "turns": turns})
        out.append({"id": c["id"], "class": c["cls"], "style": c["style"],
                    "partner": c["partner"], "agent": c["agent"], "sessions": sessions,
                    "expect": {"active": c["active"], "once": c["once"],
                               "retired": c["retired"], "absent": []}})
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "cases.jsonl"), "w", encoding="utf-8") as f:
        for c in out:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"wrote {len(out)} cases")


if __name__ == "__main__":
    build()
