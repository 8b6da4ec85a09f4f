#!/usr/bin/env python3
"""Hand-written source of the second rules batch. `python3 build.py` rewrites cases.jsonl.

Each case: id, style, partner, agent, sessions [(at, [turn, turn, ...])], expect.
Turns alternate partner / agent, partner first.
"""
import json
import os

CHG_NONE = ["used to", "formerly", "former ", "previous", "no longer", "anymore", "any more",
            "switch", "swapped", "sold", "moved", "instead", "left ", "until", "stop", "quit",
            "replac", "traded", "promot", "changed", "gave up"]
STOP = ["quit", "stop", "gave up", "given up", "give up", "giving up", "no longer", "any more",
        "anymore", "cut out", "cut down", "cutting", "cut ", "cancel", "discontinu", "drop",
        "packed in", "pack in", "packed it in", "kicked", "ditch", "ceas", "called it", "done with",
        "n't", "not ", "never", "without", "former", "used to", "delet", "left ", "leav", "sold",
        "abandon", "finish", "unsubscrib", "no more", "lapse", "stepped down", "step down",
        "resign", "retir"]

CASES = []


def case(cid, cls, style, partner, agent, sessions, active=(), once=(), retired=(), absent=()):
    ss = []
    for at, turns in sessions:
        ts = []
        for i, text in enumerate(turns):
            ts.append({"speaker": partner if i % 2 == 0 else agent, "text": text})
        ss.append({"at": at, "turns": ts})
    CASES.append({"id": cid, "class": cls, "style": style, "partner": partner, "agent": agent,
                  "sessions": ss,
                  "expect": {"active": list(active), "once": list(once), "retired": list(retired),
                             "absent": list(absent)}})


def same(cid, style, p, a, sessions, *once):
    case(cid, "same", style, p, a, sessions, once=[{"all": o} for o in once])


def add(cid, style, p, a, sessions, *items):
    case(cid, "addition", style, p, a, sessions, active=[{"all": i} for i in items])


def chg(cid, style, p, a, sessions, new, old, extra_none=()):
    """new, old: 'all' lists. The old matcher's none holds every alternative of the new keywords,
    the change words and extra_none."""
    old_words = {w.lower() for e in old for w in ([e] if isinstance(e, str) else e)}
    new_words = [w for e in new for w in ([e] if isinstance(e, str) else e) if w.lower() not in old_words]
    none = new_words + CHG_NONE + list(extra_none)
    case(cid, "change", style, p, a, sessions, active=[{"all": new}],
         retired=[{"all": old, "none": none}])


def stop(cid, style, p, a, sessions, habit):
    """habit: list of alternatives naming the habit."""
    case(cid, "stop", style, p, a, sessions,
         active=[{"all": [habit, list(STOP)]}],
         retired=[{"all": [habit], "none": list(STOP)}])


# ---------------------------------------------------------------- same
# exact repeats: 29, 31, 33, 35, 37, 40, 41, 43, 45, 48, 49, 50; rewordings: the rest.
# three sessions: 31, 35, 39, 43, 52.

same("same-29", "plain", "Aroha", "Tali", [
    ("2023-01-07T09:15", ["My sister Mereana is a midwife in Whanganui.",
                          "That's a demanding job. How's your morning?",
                          "Slow. I'm still in my pyjamas.",
                          "Sounds like a proper Saturday."]),
    ("2023-01-21T10:05", ["My sister Mereana is a midwife in Whanganui. She delivered twins yesterday.",
                          "What a day for her!"]),
], ["Mereana", "midwife"])

same("same-30", "plain", "Bartek", "Bex", [
    ("2023-01-10T18:40", ["I have a cockatiel called Mango. Mango is twelve years old.",
                          "They live a long time. Does he talk?",
                          "He whistles the news jingle.",
                          "That's brilliant."]),
    ("2023-02-02T19:10", ["My cockatiel Mango is 12.",
                          "Noted. How was your week?",
                          "Long. Lots of overtime.",
                          "I hope the weekend is quieter."]),
], ["Mango", ["12", "twelve"]])

same("same-31", "plain", "Chidi", "Lumi", [
    ("2023-01-14T07:30", ["I drive a black cab in Croydon.",
                          "Early start today?",
                          "Yes. Airport run at five.",
                          "Hope the traffic was kind."]),
    ("2023-02-04T08:00", ["I drive a black cab in Croydon. Busy night yesterday.",
                          "Friday nights usually are."]),
    ("2023-02-25T07:45", ["I drive a black cab in Croydon. The roadworks are driving me mad.",
                          "They never seem to end, do they?",
                          "No.",
                          "Hang in there."]),
], [["cab", "taxi"], "Croydon"])

same("same-32", "plain", "Dagny", "Arlo", [
    ("2023-01-18T20:10", ["My daughter Sunniva plays handball for Tromsø IL.",
                          "Does she play in goal or on court?",
                          "Left wing.",
                          "Fast position."]),
    ("2023-02-08T20:45", ["Sunniva, my daughter, is on the handball team at Tromsø IL.",
                          "Thanks. Any plans for the holidays?",
                          "Skiing, if the snow holds.",
                          "Fingers crossed."]),
], ["Sunniva", "handball"])

same("same-33", "chatty", "Esperanza", "Niko", [
    ("2023-01-22T16:20", ["Hola!! 😊 Crazy morning, the bus was late again and I spilled mate all over my blouse lol. "
                          "Anyway, I run a little flower stall at the Mercado Norte in Salta on weekends, and today we had sooo many orders for roses 🌹",
                          "Roses on a Sunday, lovely. Did the blouse survive?",
                          "Barely 😂 my mum says lemon juice fixes everything",
                          "Mums usually know."]),
    ("2023-02-12T17:00", ["Hiii! So tired 😅 I run a little flower stall at the Mercado Norte in Salta on weekends and the Valentine's rush nearly killed me lol. "
                          "My cousin Rocío came to help though, she's an angel 💐",
                          "Sounds like you needed her. Are you resting tonight?",
                          "Empanadas and bed 🛌",
                          "Perfect plan."]),
], ["flower", "Mercado Norte"])

same("same-34", "chatty", "Faisal", "Wynn", [
    ("2023-01-25T19:30", ["Salam! Quick hello before dinner 🍲 Big news in our house: my son Yahya just started at Al-Noor Primary, he's in year 2 and he LOVES his teacher 😄 "
                          "Meanwhile I've got a mountain of invoices to do for work, pray for me lol",
                          "Good luck with the invoices! Has he made friends yet?",
                          "Already invited three of them for his birthday 😂",
                          "Fast work."]),
    ("2023-02-19T20:00", ["Hey hey 👋 long week!! Quick update on the little one: Yahya is in year two at Al-Noor Primary and still obsessed with his teacher lol. "
                          "Meanwhile I've been trying to fix the washing machine all evening 🙄🔧",
                          "Any luck with the machine?",
                          "It beeps at me now. Progress? 😅",
                          "I'd call that progress."]),
], ["Yahya", ["Al-Noor", "Al Noor", "Alnoor"]])

same("same-35", "chatty", "Giedre", "Tali", [
    ("2023-02-01T21:00", ["Labas! 🎸 Just got home from rehearsal, ears ringing lol. I play bass guitar in a covers band called The Amber Foxes, "
                          "we do mostly 80s stuff and tonight we finally nailed the Bon Jovi one 🤘",
                          "Sounds like a fun evening. What's next for you this week?",
                          "Dentist tomorrow 😬 then sleep",
                          "Good luck at the dentist."]),
    ("2023-02-15T18:30", ["Hiya! It snowed like crazy today ❄️ my car is a snowball lol, took me 20 min to dig it out",
                          "Did you make it to work in the end?",
                          "Late but yes 😅",
                          "Better late than never."]),
    ("2023-03-04T22:15", ["Heyyy 😄 I play bass guitar in a covers band called The Amber Foxes, and we just played our first wedding!! "
                          "The bride's uncle sang with us, absolute chaos 😂🎉",
                          "How did the dance floor react?",
                          "Packed all night!!",
                          "That's the dream."]),
], ["Amber Foxes", "bass"])

same("same-36", "chatty", "Hyun-woo", "Bex", [
    ("2023-02-06T07:10", ["Morning!! 🏃‍♂️ I signed up for the Chuncheon Marathon in October, first full marathon ever 😱 "
                          "my colleagues think I've lost it lol. Also the office coffee machine broke so today is already a disaster ☕❌",
                          "Brave on both counts. How's your training plan looking?",
                          "Three runs a week for now, slowly slowly 😅",
                          "Slow and steady works."]),
    ("2023-03-12T08:20", ["Hey! 😄 So the Chuncheon Marathon is in October and it'll be my first full one, so the long runs are getting serious now. "
                          "Did 18 km yesterday and my legs are jelly lol. Kimchi stew for recovery 🍲",
                          "Stew sounds like the right call. Rest day today?",
                          "Sofa all day 😂",
                          "Well earned."]),
], ["Chuncheon", "marathon"])

same("same-37", "terse", "Ilse", "Lumi", [
    ("2023-02-10T12:00", ["allergic to wasps. carry an epipen.",
                          "Good to know. How's the day?",
                          "fine. raining.",
                          "Stay dry."]),
    ("2023-03-02T12:40", ["allergic to wasps. carry an epipen. new job monday.",
                          "Good luck with the new job.",
                          "thanks.",
                          "Enjoy it."]),
], ["wasp"])

same("same-38", "terse", "Jomo", "Arlo", [
    ("2023-02-14T21:05", ["daughter Wanjiru, 9.",
                          "Thanks. Busy evening?",
                          "homework. long division.",
                          "The classic."]),
    ("2023-03-06T21:30", ["Wanjiru's nine. my daughter.",
                          "Got it. How was the weekend?",
                          "football. muddy.",
                          "Muddy football is the best kind."]),
], ["Wanjiru", ["9", "nine"]])

same("same-39", "terse", "Kamala", "Niko", [
    ("2023-02-20T13:15", ["coeliac. diagnosed 2016.",
                          "Thanks for telling me. Lunch plans?",
                          "rice bowl.",
                          "Good choice."]),
    ("2023-03-08T13:00", ["busy. tax forms.",
                          "Good luck with them."]),
    ("2023-03-29T12:50", ["coeliac since 2016 btw. work lunch tomorrow.",
                          "Hope they have something good for you.",
                          "doubt it.",
                          "Maybe bring a backup."]),
], [["coeliac", "celiac"], "2016"])

same("same-40", "terse", "Lorenzo", "Wynn", [
    ("2023-02-24T06:30", ["engineer on the Capraia ferry.",
                          "Early shift?",
                          "always.",
                          "Coffee helps."]),
    ("2023-03-16T06:45", ["engineer on the Capraia ferry. rough sea today.",
                          "Hope it settles down.",
                          "it will.",
                          "Safe crossing."]),
], ["Capraia", "ferry"])

same("same-41", "typos", "Madina", "Tali", [
    ("2023-03-01T20:20", ["my husbnd Timur works as a chef at a restrant in Almaty",
                          "Does he cook at home too?",
                          "never lol hes too tired",
                          "Fair enough."]),
    ("2023-03-22T21:00", ["my husbnd Timur works as a chef at a restrant in Almaty, hes on double shifts this week so im alone with the kids",
                          "That's a lot. Are you getting any rest?",
                          "not realy",
                          "I hope the week ends soon for you."]),
], ["Timur", "chef"])

same("same-42", "typos", "Nuno", "Bex", [
    ("2023-03-05T17:45", ["got a motrbike, a yamaha mt-07, red one",
                          "Nice! Where are you riding first?",
                          "up to the serra on sunday",
                          "Enjoy the views."]),
    ("2023-03-27T18:30", ["my bike is the red yamaha mt07 btw, took it to the coast yestrday",
                          "How was the ride?",
                          "windy but amazng",
                          "Sounds worth it."]),
], ["Yamaha", ["MT-07", "MT07", "MT 07"]])

same("same-43", "typos", "Folasade", "Lumi", [
    ("2023-03-09T19:00", ["im lactose intolrant so no milk for me",
                          "Thanks for telling me. Dinner plans?",
                          "jollof tonite",
                          "Sounds great."]),
    ("2023-03-30T19:40", ["im lactose intolrant so no milk for me",
                          "Got it. How's the week going?",
                          "long lol",
                          "Hang in there."]),
    ("2023-04-18T20:10", ["still lactose intolerent obvs. anyway work was long",
                          "Rest up this evening.",
                          "will do",
                          "Good."]),
], ["lactose"])

same("same-44", "typos", "Pavol", "Arlo", [
    ("2023-03-13T22:00", ["we live in a flat on the 8th floor in košice, no lift lol",
                          "That's a workout every day!",
                          "my legs are strong now haha",
                          "Silver linings."]),
    ("2023-04-03T22:30", ["our flat in kosice is on floor 8, my legs r dying today lol",
                          "Long day?",
                          "very",
                          "Rest up."]),
], [["Košice", "Kosice"], ["8", "eight"]])

same("same-45", "formal", "Rehana", "Niko", [
    ("2023-03-18T10:30", ["I serve as treasurer of the Hartwell Allotment Association, a position I have held since 2019.",
                          "That must keep you busy around the subscription season.",
                          "It does, though the members are generally prompt with their fees.",
                          "That makes life easier."]),
    ("2023-04-08T11:00", ["I serve as treasurer of the Hartwell Allotment Association, a position I have held since 2019. "
                          "Our annual general meeting took place yesterday evening and ran considerably over time.",
                          "Long meetings can be draining. Did anything interesting come up?",
                          "Chiefly a lengthy debate concerning the placement of a new water butt.",
                          "The essential questions."]),
], ["treasurer", "Hartwell"])

same("same-46", "formal", "Sigurd", "Wynn", [
    ("2023-03-23T15:00", ["My mother, Ragnhild, resides in a care home in Stavanger, where she has lived for three years.",
                          "Thank you for sharing that. Do you visit often?",
                          "I travel there on the first weekend of each month.",
                          "That sounds like a good rhythm."]),
    ("2023-04-14T15:30", ["Ragnhild, my mother, has been a resident of a Stavanger care home for the past three years.",
                          "Thank you. How has your week been?",
                          "Productive, if somewhat long.",
                          "I hope the weekend is restful."]),
], ["Ragnhild", "Stavanger"])

same("same-47", "formal", "Ekaterina", "Tali", [
    ("2023-03-27T09:00", ["I am employed as a patent translator at Vossberg & Lind, where I translate Japanese filings into English.",
                          "That sounds exacting. Do you work from the office?",
                          "Three days a week, and otherwise from home.",
                          "A sensible balance."]),
    ("2023-04-20T09:20", ["My position at Vossberg & Lind remains that of patent translator, working from Japanese into English.",
                          "Thank you. Anything planned for the weekend?",
                          "A concert on Saturday evening.",
                          "Enjoy the music."]),
], ["Vossberg", "translat"])

same("same-48", "formal", "Ugo", "Bex", [
    ("2023-04-01T14:10", ["I should mention that I have worn a hearing aid in my right ear since childhood.",
                          "Thank you for telling me. Is there anything that makes conversations easier for you?",
                          "Quiet rooms, principally.",
                          "Understood."]),
    ("2023-04-26T14:45", ["I have worn a hearing aid in my right ear since childhood. Separately, I am pleased to report that my daughter's wedding is now fixed for the twelfth of August.",
                          "Congratulations to her! Is there much left to organise?",
                          "A great deal, I am afraid.",
                          "I hope it all comes together smoothly."]),
], ["hearing aid"])

same("same-49", "indirect", "Yerlan", "Lumi", [
    ("2023-04-05T23:10", ["On the way back from my shift at the Ekibastuz power station, where I work as a control room operator, a fox ran right across the road in front of me.",
                          "A fox! Did you manage to stop in time?",
                          "Just about. It stared at me like I was the problem.",
                          "Foxes do have attitude."]),
    ("2023-05-02T23:40", ["Tonight's shift at the Ekibastuz power station, where I work as a control room operator, ended with a surprise fire drill at three in the morning.",
                          "That's an unkind time for a drill.",
                          "Everyone was grumbling in the car park.",
                          "I can imagine."]),
], ["Ekibastuz", "operator"])

same("same-50", "indirect", "Zuzana", "Arlo", [
    ("2023-04-10T19:05", ["Long day.",
                          "What do you do for work?",
                          "I'm a physiotherapist at a sports clinic in Brno.",
                          "That must be physical work."]),
    ("2023-05-08T19:30", ["Tired again.",
                          "What's wearing you out?",
                          "Work, as usual. I'm a physiotherapist at a sports clinic in Brno.",
                          "Make sure you get some rest tonight."]),
], ["physio", "Brno"])

same("same-51", "indirect", "Linh", "Niko", [
    ("2023-04-15T22:30", ["I burned my hand on a stockpot today.",
                          "Ouch! Where were you cooking?",
                          "At work. I run a small pho restaurant in Da Nang called Pho Hanh.",
                          "Please look after that hand."]),
    ("2023-05-13T22:00", ["A tourist asked me for ketchup today and I nearly fainted.",
                          "Ha! Where was this?",
                          "At work. I run a small pho restaurant in Da Nang called Pho Hanh, and nobody has ever asked for ketchup before.",
                          "A first for everything."]),
], ["Pho Hanh", ["Da Nang", "Danang"]])

same("same-52", "indirect", "Teuila", "Wynn", [
    ("2023-04-22T17:30", ["Muddy Saturday! My son Fetu plays rugby for the Ponsonby under-12s and we stood in the rain for two hours cheering.",
                          "Did they win?",
                          "Lost by a try, but they were happy.",
                          "That's what counts."]),
    ("2023-05-06T18:00", ["Church fundraiser all day. My feet hurt.",
                          "Did it raise much?",
                          "More than last year.",
                          "Well done."]),
    ("2023-05-20T17:45", ["I can't stop smiling. My son Fetu plays rugby for the Ponsonby under-12s, and today he scored his first try.",
                          "What a moment!",
                          "The whole sideline screamed.",
                          "I can imagine."]),
], ["Fetu", "Ponsonby"])

# ---------------------------------------------------------------- addition
# markers: another 29, 41, 49; second 30; third 36; also 31, 40, 47, 51; too 33, 39, 43;
# as well 34, 46, 52; my other 32, 42; one more 37; no marker 35, 38, 44, 45, 48, 50
# (44 and 50 answer the agent's question).

add("add-29", "plain", "Meenakshi", "Tali", [
    ("2023-05-03T18:00", ["I have a rabbit named Pistachio.",
                          "What colour is it?",
                          "Brown with a white nose.",
                          "Sounds sweet."]),
    ("2023-05-24T18:30", ["We got another rabbit, a grey one called Fudge.",
                          "How are they getting along?",
                          "They chase each other all evening.",
                          "That sounds like a good start."]),
], ["Pistachio"], ["Fudge"])

add("add-30", "plain", "Mariela", "Bex", [
    ("2023-05-06T20:15", ["I work as a tour guide in Cusco.",
                          "Do you lead the long treks too?",
                          "Only city walks.",
                          "Still plenty of walking."]),
    ("2023-06-03T20:45", ["I took a second job, weekend shifts at a bookshop called Página Uno.",
                          "That's a full week. How was the first shift?",
                          "Quiet. I read a lot.",
                          "Not a bad way to work."]),
], [["tour guide", "tour-guide"]], [["Página Uno", "Pagina Uno"]])

add("add-31", "plain", "Jussi", "Lumi", [
    ("2023-05-10T17:30", ["I am learning Spanish on Duolingo.",
                          "How far along are you?",
                          "A hundred-day streak.",
                          "Impressive."]),
    ("2023-06-07T18:00", ["I also started learning Estonian at evening classes.",
                          "How is the first week going?",
                          "The cases are hard.",
                          "Give it time."]),
], ["Spanish"], ["Estonian"])

add("add-32", "plain", "Chioma", "Arlo", [
    ("2023-05-14T12:10", ["My brother Emeka lives in Lagos.",
                          "Do you see him often?",
                          "Every Christmas.",
                          "Nice tradition."]),
    ("2023-06-11T12:40", ["My other brother, Obinna, lives in Houston.",
                          "That's far. Do you call often?",
                          "Every Sunday.",
                          "That's lovely."]),
], ["Emeka"], ["Obinna"])

add("add-33", "chatty", "Oksana", "Niko", [
    ("2023-05-20T19:00", ["Pryvit! 🌸 Finally spring!! I spent the whole day at our dacha outside Poltava, we keep goats there, three of them, "
                          "and the little one jumped on the car roof AGAIN 🐐😂 my husband just stood there laughing",
                          "That sounds like a lively day. Are they easy to look after?",
                          "Easy? No. Funny? Yes 😅",
                          "Sounds like a fair trade."]),
    ("2023-06-17T19:30", ["Hiii 😊 Big weekend at the dacha again, we're keeping chickens there too now, six hens, they follow me around like dogs 🐔🐔 "
                          "Also my neighbour gave me her tomato seedlings so the garden is exploding lol",
                          "Are you getting eggs yet?",
                          "Four this morning!!",
                          "Breakfast sorted."]),
], ["goat"], [["chicken", "hens"]])

add("add-34", "chatty", "Maximilian", "Wynn", [
    ("2023-05-27T21:00", ["Servus! ⚽ Sofa mode activated. I'm subscribed to DAZN mostly for the Bundesliga and Champions League, "
                          "and tonight is the big derby so the snacks are ready 🍿 my wife is banished to the kitchen lol",
                          "Enjoy the match! Who are you cheering for?",
                          "The underdogs, always 😅",
                          "Good luck to them."]),
    ("2023-06-24T21:30", ["Hey! Summer break from football is killing me 😩 so I signed up for MUBI as well, my sister swears by the arthouse stuff, "
                          "watched a three-hour Hungarian film last night and I'm still processing it 😂",
                          "Three hours is a commitment. Did you like it?",
                          "No idea honestly lol",
                          "That's arthouse for you."]),
], ["DAZN"], ["MUBI"])

add("add-35", "chatty", "Jhoanna", "Tali", [
    ("2023-06-02T20:00", ["Kumusta! 😊 Had merienda with my best friend Trisha after work, we've been friends since grade school, "
                          "and we ate way too much turon lol 🍌 Now I'm in a food coma watching teleseryes",
                          "That sounds like a good evening. What's the teleserye about?",
                          "Long-lost twins, as always 😂",
                          "A classic."]),
    ("2023-06-30T20:20", ["Grabe 😅 my friend Kiko from the office dragged me to a spin class this morning and I can't feel my legs 🚴‍♀️ "
                          "He's training for a triathlon so he's insane. Anyway the weekend is here!!",
                          "Your legs will thank you later. Plans for the weekend?",
                          "Sleeping. Only sleeping 😴",
                          "Sensible."]),
], ["Trisha"], ["Kiko"])

add("add-36", "chatty", "Dilnoza", "Bex", [
    ("2023-06-08T18:45", ["Salom! 😊 Our two cats, Oybek and Zumrad, are fighting over the new sofa, "
                          "it's like watching a soap opera 🙈 Also I made plov for 12 people yesterday, my arms hurt lol",
                          "Plov for twelve is a feat! Who won the sofa?",
                          "Zumrad, obviously. She's the boss 😂",
                          "Sounds like it."]),
    ("2023-07-06T19:10", ["Okay so... we adopted a third cat 🙈🙈 a tiny ginger kitten called Paxta, my daughter found him behind the bazaar "
                          "and made the saddest eyes at me. The other two are not impressed lol",
                          "How is he settling in?",
                          "He sleeps in my slipper 🥹",
                          "Adorable."]),
], ["Oybek"], ["Zumrad"], ["Paxta"])

add("add-37", "terse", "Gintaras", "Lumi", [
    ("2023-06-12T08:10", ["own a dacia duster. grey.",
                          "Thanks. Heading to work?",
                          "yes. late.",
                          "Drive safe."]),
    ("2023-07-10T08:30", ["one more car now. renault zoe, for the wife's commute.",
                          "How does she like it?",
                          "loves it. quiet.",
                          "Good."]),
], ["Duster"], ["Zoe"])

add("add-38", "terse", "Kaveh", "Arlo", [
    ("2023-06-16T22:00", ["speak farsi and english.",
                          "Noted. Long day?",
                          "very.",
                          "Rest well."]),
    ("2023-07-14T22:15", ["turkish classes. tuesdays. hard.",
                          "What's the trickiest part?",
                          "vowel harmony.",
                          "Sounds tricky."]),
], [["Farsi", "Persian"]], ["Turkish"])

add("add-39", "terse", "Ayelet", "Niko", [
    ("2023-06-20T19:30", ["have a dog. shoko, a mutt.",
                          "How old?",
                          "four.",
                          "Nice age."]),
    ("2023-07-18T19:45", ["got a hamster too. named bamba.",
                          "How does the dog react?",
                          "stares at the cage all day.",
                          "Ha."]),
], ["Shoko"], ["Bamba"])

add("add-40", "terse", "Tuan", "Wynn", [
    ("2023-06-24T21:10", ["play badminton. wednesdays.",
                          "Singles or doubles?",
                          "doubles.",
                          "Fun."]),
    ("2023-07-22T21:20", ["also bouldering now. fridays, gym near work.",
                          "How's the grip strength?",
                          "gone. forearms dead.",
                          "It builds up."]),
], ["badminton"], [["boulder", "climb"]])

add("add-41", "typos", "Shanice", "Tali", [
    ("2023-07-01T16:00", ["i volunter at the soup kitchen on saturdys",
                          "That's kind of you. How long have you done it?",
                          "like 2 yrs",
                          "That's commitment."]),
    ("2023-07-29T16:30", ["signd up for anothr volunteering thing, reading to kids at the libary on thursdys",
                          "What are you reading with them?",
                          "gruffalo lol they love it",
                          "A good pick."]),
], [["soup kitchen", "soup-kitchen"]], [["libary", "librar"]])

add("add-42", "typos", "Dariusz", "Bex", [
    ("2023-07-05T20:30", ["my sistr agata is a nurse in wroclaw",
                          "Does she work nights?",
                          "all the time",
                          "Tough."]),
    ("2023-08-02T20:50", ["my othr sister kinga jsut got a job in dublin, mum is devastated lol",
                          "What's the job?",
                          "software somethin",
                          "Sounds good."]),
], ["Agata"], ["Kinga"])

add("add-43", "typos", "Rin", "Lumi", [
    ("2023-07-09T23:00", ["i got a nintendo switch for xmas, playing zelda all nite",
                          "Which part are you on?",
                          "the sky islands lol",
                          "Fun."]),
    ("2023-08-06T23:15", ["bought a steam deck too lol my wallet is crying",
                          "What are you playing on it?",
                          "hades mostly",
                          "Good choice."]),
], ["Nintendo"], [["Steam Deck", "Steamdeck"]])

add("add-44", "typos", "Aigerim", "Arlo", [
    ("2023-07-13T18:20", ["my kid alua does swimming 3 times a week, so much driving",
                          "That's a lot of pool time.",
                          "she loves it tho",
                          "That's what matters."]),
    ("2023-08-10T18:40", ["so tired, sports run evry evening now",
                          "What else is on the schedule?",
                          "alua started gymnastcs, tuesdys and thursdys",
                          "Busy kid."]),
], [["swim"]], [["gymnast"]])

add("add-45", "formal", "Benedetta", "Niko", [
    ("2023-07-17T11:00", ["I own a flat in the old town of Lecce, which I let to university students.",
                          "Is that much work to manage?",
                          "Rather less than one might expect, as the students are generally considerate.",
                          "That's fortunate."]),
    ("2023-09-11T11:30", ["I have recently purchased a small farmhouse near Otranto, which my family intends to use during the summer months.",
                          "Congratulations. Does it need much work?",
                          "The roof requires attention before next spring.",
                          "Good luck with the repairs."]),
], ["Lecce"], ["Otranto"])

add("add-46", "formal", "Augustin", "Wynn", [
    ("2023-07-21T19:00", ["I am a member of the Société Astronomique de Lyon and attend their monthly lectures.",
                          "What was the most recent lecture about?",
                          "Variable stars, and it was excellent.",
                          "Sounds fascinating."]),
    ("2023-09-15T19:20", ["I have joined the Lyon Ornithological Circle as well, and shall be taking part in the winter count.",
                          "What do you hope to see?",
                          "Ideally a wallcreeper, though I am not optimistic.",
                          "Fingers crossed."]),
], [["Astronom"]], [["Ornitholog"]])

add("add-47", "formal", "Harriet", "Tali", [
    ("2023-07-25T08:30", ["I take lisinopril each morning for my blood pressure.",
                          "Thank you for letting me know. How are you today?",
                          "Well enough, thank you.",
                          "Glad to hear it."]),
    ("2023-08-22T08:45", ["My physician has also prescribed atorvastatin, which I am to take in the evening.",
                          "Noted. How are you feeling about it?",
                          "Resigned, on the whole.",
                          "That's understandable."]),
], ["lisinopril"], ["atorvastatin"])

add("add-48", "formal", "Cornelius", "Bex", [
    ("2023-07-29T20:00", ["I play the bassoon in the Amstelveen Community Orchestra.",
                          "What are you rehearsing at the moment?",
                          "A rather demanding Shostakovich programme.",
                          "That sounds ambitious."]),
    ("2023-09-23T20:30", ["Last month I began lessons on the viola da gamba with a teacher in Haarlem, and I find the frets most disconcerting.",
                          "How often are the lessons?",
                          "Fortnightly, on Thursday afternoons.",
                          "A good pace to start with."]),
], ["bassoon"], ["gamba"])

add("add-49", "indirect", "Inti", "Lumi", [
    ("2023-08-02T07:40", ["My alpaca Chaska knocked over the water trough again this morning, so I was late to open my stall at the market.",
                          "Oh no! Did you lose many customers?",
                          "Only one, and she came back later.",
                          "Not too bad then."]),
    ("2023-09-06T08:00", ["You won't believe it: another of our alpacas, the young one we bought last week, called Wayra, followed me all the way into town and ate a lettuce off the neighbouring stall.",
                          "How did the neighbour take it?",
                          "She made me pay for three lettuces.",
                          "Fair enough!"]),
], ["Chaska"], ["Wayra"])

add("add-50", "indirect", "Mirri", "Arlo", [
    ("2023-08-06T15:10", ["Had to pick up Jarrah from school early, he had a temperature.",
                          "Poor thing. How old is he?",
                          "Jarrah's eight, my eldest.",
                          "I hope he feels better soon."]),
    ("2023-09-10T16:00", ["Madhouse at home today.",
                          "Oh? What happened?",
                          "My youngest, Tully, turned five, so there were twelve kids in the backyard.",
                          "That's a proper party."]),
], ["Jarrah"], ["Tully"])

add("add-51", "indirect", "Aino", "Niko", [
    ("2023-08-10T21:00", ["My Audible credit arrived this morning, so I listened to a whole thriller while cleaning the flat.",
                          "Was it any good?",
                          "I guessed the killer by chapter three.",
                          "Still satisfying."]),
    ("2023-09-14T21:30", ["I'm also on Storytel now, since they have more Finnish titles, and today I was so into a book on the bus that I rode past my stop.",
                          "How far did you end up going?",
                          "Four stops. Nice walk back, though.",
                          "Silver lining."]),
], ["Audible"], ["Storytel"])

add("add-52", "indirect", "Kemal", "Wynn", [
    ("2023-08-14T18:30", ["Our under-9s lost 40 to 12 today. I coach them at the Karşıyaka youth basketball club on Saturdays, and the boys were heartbroken.",
                          "That's a tough result. How did you cheer them up?",
                          "Ice cream, as always.",
                          "Works every time."]),
    ("2023-09-18T19:00", ["Today I ran my first practice with the girls' under-13s, whom I now coach at the club as well. They are far more disciplined than the boys.",
                          "How many girls are on the team?",
                          "Eleven, and they all shoot better than me.",
                          "That's a good problem to have."]),
], [["under-9", "under 9", "U9", "U-9"]], [["under-13", "under 13", "U13", "U-13"]])

# ---------------------------------------------------------------- change
# switched 29, 41; sold … bought 30, 42; moved from A to B 31, 45; now … instead 32, 44;
# left X, now Y 33, 37; these days 34, 43; traded in 35; replaced X with Y 36, 46;
# promotion 38, 47, 52; moved (terse) 39; no longer X, Y now 40, 48;
# new state only (first week, new flat, new schedule) 49, 50, 51.

chg("chg-29", "plain", "Aylin", "Tali", [
    ("2023-09-02T09:00", ["Our internet provider is Türk Telekom.",
                          "Thanks. What are you up to today?",
                          "Painting the hallway.",
                          "Good luck with it."]),
    ("2023-10-14T09:30", ["We switched from Türk Telekom to Superonline.",
                          "Is it faster?",
                          "Much faster.",
                          "Good to hear."]),
], ["Superonline"], [["Türk Telekom", "Turk Telekom"]])

chg("chg-30", "plain", "Joost", "Bex", [
    ("2023-09-06T17:00", ["I own a canal boat called De Reiger.",
                          "Do you live on it?",
                          "No, I use it at weekends.",
                          "Lovely."]),
    ("2024-04-20T17:30", ["I sold De Reiger and bought a sailing sloop called Zeezwaluw.",
                          "Where will you sail her?",
                          "On the IJsselmeer.",
                          "Sounds great."]),
], ["Zeezwaluw"], ["Reiger"])

chg("chg-31", "plain", "Sione", "Lumi", [
    ("2023-09-10T19:20", ["I live in Nuku'alofa.",
                          "What's the weather like there today?",
                          "Hot and sticky.",
                          "Stay cool."]),
    ("2024-03-16T19:40", ["I moved from Nuku'alofa to Brisbane in March.",
                          "How are you finding it?",
                          "Colder than I thought.",
                          "You'll get used to it."]),
], ["Brisbane"], [["Nuku'alofa", "Nukualofa", "Nuku’alofa"]])

chg("chg-32", "plain", "Halldóra", "Arlo", [
    ("2023-09-14T20:30", ["I go to yoga on Tuesday evenings.",
                          "Which style do you do?",
                          "Hatha.",
                          "Relaxing."]),
    ("2023-10-26T20:45", ["My yoga is on Thursday mornings now instead.",
                          "Do you prefer mornings?",
                          "Yes, I sleep better.",
                          "Good."]),
], ["yoga", "Thursday"], ["yoga", "Tuesday"])

chg("chg-33", "chatty", "Eleni", "Niko", [
    ("2023-09-18T21:00", ["Yia sou! 😊 Long day at the office, I'm an accountant at Papadakis Shipping in Piraeus and it's quarter-end so everyone is losing their minds lol. "
                          "Made moussaka tonight to cope 🍆🍆",
                          "Moussaka sounds like the right coping strategy. Is quarter-end always this hectic?",
                          "Every. Single. Time. 😩",
                          "Hang in there."]),
    ("2024-01-27T11:00", ["Guess what!!! 🎉 I left Papadakis Shipping and now I do the books for Aegeon Hotels, fully remote, "
                          "so I'm writing this from the balcony with a frappé ☕ My cat is supervising lol",
                          "That sounds like a big change. How are you finding it?",
                          "So much calmer 😌",
                          "That's wonderful."]),
], ["Aegeon"], ["Papadakis"])

chg("chg-34", "chatty", "Anjali", "Wynn", [
    ("2023-09-22T10:30", ["Morning!! ☕☕☕ I'm on my fourth coffee already and it's only 10:30 lol. Honestly I drink about four cups of coffee a day, "
                          "the office machine knows me by name 😂 Big client presentation at noon, wish me luck",
                          "Good luck with the presentation! What's it about?",
                          "Quarterly numbers, thrilling stuff 🙃",
                          "I'm sure you'll do great."]),
    ("2023-12-09T10:45", ["Hiya! 🍵 These days I'm on green tea, matcha in the morning and sencha after lunch, and I sleep SO much better. "
                          "Also I finally booked flights to Jaipur for the wedding in February!!",
                          "How exciting! Whose wedding?",
                          "My cousin Deepa's 💃",
                          "Have a wonderful time."]),
], [["green tea", "matcha", "sencha"]], ["coffee"], ["tea"])

chg("chg-35", "chatty", "Catalina", "Tali", [
    ("2023-09-26T18:00", ["Hola! 🚗 Took my old Suzuki Swift to the car wash today, she's 12 years old but still runs like a dream, "
                          "then drove up to the Cajón del Maipo for empanadas with my sister 😋",
                          "That sounds like a lovely drive. How were the empanadas?",
                          "The best in Chile, don't argue 😂",
                          "I wouldn't dare."]),
    ("2024-02-10T18:20", ["Sooo big news ⚡ I traded in the Swift for a Hyundai Ioniq, fully electric!! "
                          "My dad keeps asking where the engine noise went lol, and charging at the supermarket is weirdly fun",
                          "How's the range?",
                          "Enough for Santiago and back twice 😎",
                          "Nice."]),
], ["Ioniq"], ["Swift"], ["trade"])

chg("chg-36", "chatty", "Gethin", "Bex", [
    ("2023-09-30T07:50", ["Shwmae! 😄 Up early for a run along the Taff, I track everything on my Fitbit, steps, sleep, the lot 🏃‍♂️ "
                          "Apparently I slept 5 hours which explains a lot lol",
                          "Five hours is rough. Any plans to catch up?",
                          "Nap at lunch, obviously 😴",
                          "Good thinking."]),
    ("2024-01-13T08:10", ["Morning! Replaced the Fitbit with a Garmin watch for my birthday 🎂 the GPS is unreal for the trail runs in the Beacons. "
                          "Also my mam finally learned to use WhatsApp, so my phone hasn't stopped buzzing 😂",
                          "Happy belated birthday! How's the family chat going?",
                          "Mostly photos of her dog lol",
                          "The best kind of chat."]),
], ["Garmin"], ["Fitbit"])

chg("chg-37", "terse", "Oren", "Lumi", [
    ("2023-10-04T19:00", ["work at teva. chemist.",
                          "Long day?",
                          "always.",
                          "Rest up."]),
    ("2024-02-24T19:15", ["left teva. at a startup now, molekula.",
                          "How's the new place?",
                          "chaotic. good.",
                          "Good luck."]),
], ["Molekula"], ["Teva"])

chg("chg-38", "terse", "Hemi", "Arlo", [
    ("2023-10-08T21:30", ["assistant manager. countdown supermarket, hamilton.",
                          "Busy week?",
                          "stocktake.",
                          "Ugh."]),
    ("2024-03-02T21:40", ["store manager now. got it friday.",
                          "Congratulations!",
                          "cheers.",
                          "Well deserved."]),
], ["store manager"], ["assistant manager"], ["appoint"])

chg("chg-39", "terse", "Bao", "Niko", [
    ("2023-10-12T20:00", ["renting in hanoi. ba dinh district.",
                          "Noted. Good day?",
                          "ok.",
                          "Glad."]),
    ("2024-01-20T20:10", ["moved. saigon now. district 3.",
                          "How's the heat?",
                          "brutal.",
                          "Stay hydrated."]),
], [["Saigon", "Ho Chi Minh"]], [["Hanoi", "Ba Dinh"]])

chg("chg-40", "terse", "Ilona", "Wynn", [
    ("2023-10-16T17:30", ["teacher. chemistry, secondary school in pécs.",
                          "Marking tonight?",
                          "always.",
                          "Good luck."]),
    ("2024-02-03T17:40", ["no longer at the school. private tutor now, online.",
                          "How's it going?",
                          "more money. less noise.",
                          "Sounds like a win."]),
], ["tutor"], [["teacher", "secondary school"]])

chg("chg-41", "typos", "Guillermo", "Tali", [
    ("2023-10-20T22:00", ["im with movistar for my phone plan, its a rip off honestly",
                          "What do you pay?",
                          "like 40 a month",
                          "Ouch."]),
    ("2023-12-02T22:20", ["swiched from movistar to simyo, way cheapr",
                          "How's the signal?",
                          "same same",
                          "Nice."]),
], ["Simyo"], ["Movistar"], ["swiched"])

chg("chg-42", "typos", "Farida", "Bex", [
    ("2023-10-24T16:00", ["i drive an old opel astra, its falling apart lol",
                          "How old is it?",
                          "like 15 yrs",
                          "Respect."]),
    ("2024-03-09T16:30", ["sold the astra n bought a nissan micra, tiny but it works",
                          "Parking must be easier.",
                          "sooo much easier",
                          "Nice."]),
], ["Micra"], ["Astra"])

chg("chg-43", "typos", "Jaylen", "Lumi", [
    ("2023-10-28T05:30", ["my shift at the hospital laundry is 6am to 2pm, alarm at 4:45 ugh",
                          "That's early. Do you get used to it?",
                          "nope lol",
                          "Fair."]),
    ("2024-01-06T12:30", ["these days im on the 2pm to 10pm shift, finaly sleeping like a human",
                          "How are the evenings?",
                          "quiet, i like it",
                          "Good."]),
], [["10pm", "10 pm", "22:00", "10 p.m."]], [["6am", "6 am", "6:00", "06:00", "6 a.m."]])

chg("chg-44", "typos", "Delroy", "Arlo", [
    ("2023-11-01T18:00", ["im a bus driver for the city, route 42 mostly",
                          "Busy route?",
                          "rush hour is madnes",
                          "I bet."]),
    ("2024-04-06T18:20", ["im a drivng instructer now insted, got my own litle school",
                          "Congratulations! How many students?",
                          "9 so far",
                          "Great start."]),
], [["instruct"]], [["bus driver", "bus-driver", "route 42"]], ["insted"])

chg("chg-45", "formal", "Bernadette", "Niko", [
    ("2023-11-05T10:00", ["Our son Lucien attends the Lycée Victor Duruy in Bordeaux, where he is in his second year.",
                          "How is he finding it?",
                          "He is diligent, though he complains about the homework.",
                          "They all do."]),
    ("2024-02-17T10:20", ["Lucien has moved from the Lycée Victor Duruy to the Lycée Montaigne, which offers the science track he wanted.",
                          "Has he settled in?",
                          "Remarkably quickly, I am relieved to say.",
                          "That's good news."]),
], ["Montaigne"], ["Duruy"])

chg("chg-46", "formal", "Archibald", "Wynn", [
    ("2023-11-09T14:00", ["Our house is heated by an oil-fired boiler, which was installed in 2004.",
                          "Is it still reliable?",
                          "Adequately so, though it is expensive to run.",
                          "That's the usual complaint."]),
    ("2024-03-23T14:30", ["We have replaced the oil boiler with an air-source heat pump, and a government grant covered roughly half the cost.",
                          "How is it performing?",
                          "The house is warmer than it has ever been.",
                          "Excellent."]),
], [["heat pump", "heat-pump"]], ["oil"])

chg("chg-47", "formal", "Ayesha", "Tali", [
    ("2023-11-13T16:00", ["I hold the position of senior lecturer in economics at the University of Karachi.",
                          "What are you teaching this term?",
                          "Development economics, to the final-year students.",
                          "An important subject."]),
    ("2024-05-18T16:30", ["I am pleased to say that I have been appointed professor of economics, effective from the first of September.",
                          "Congratulations, that's wonderful news.",
                          "Thank you; it has been a long road.",
                          "Well deserved."]),
], ["professor"], ["lecturer"], ["appoint"])

chg("chg-48", "formal", "Leopold", "Bex", [
    ("2023-11-17T09:30", ["I compete in triathlons, chiefly at the Olympic distance.",
                          "How many races do you do a year?",
                          "Four or five, depending on the calendar.",
                          "That's a full season."]),
    ("2024-04-13T09:45", ["I no longer compete in triathlons; I have taken up open-water swimming instead, which suits my shoulder considerably better.",
                          "Where do you swim?",
                          "In the Wörthersee, from May onwards.",
                          "Beautiful spot."]),
], [["open-water", "open water"]], ["triathlon"])

chg("chg-49", "indirect", "Mathilde", "Lumi", [
    ("2023-11-21T19:00", ["Sore back today.",
                          "Oh no, what have you been doing?",
                          "Lifting compost sacks all day. I work at Grønt Hjørne, the garden centre in Hillerød.",
                          "Take it easy tonight."]),
    ("2024-03-30T19:20", ["My first week at the Rungsted public library went fine, though I keep pointing people towards the compost aisle out of habit.",
                          "Ha! How are you liking it otherwise?",
                          "It's quiet, and nobody needs me to lift anything.",
                          "That sounds like a relief."]),
], [["librar"]], [["Grønt Hjørne", "Gront Hjorne", "garden centre", "garden center"]])

chg("chg-50", "indirect", "Devika", "Arlo", [
    ("2023-11-25T18:00", ["I live in Kochi, in a ground-floor flat near the backwaters. Yesterday a heron walked right into my kitchen!",
                          "A heron! What did you do?",
                          "Offered it a fish, obviously.",
                          "Very hospitable."]),
    ("2024-04-20T18:30", ["Unpacking is endless. Our new flat in Indore is on the ninth floor, so no herons here, only pigeons.",
                          "Have you found the kettle yet?",
                          "First box I opened.",
                          "Priorities."]),
], ["Indore"], ["Kochi"])

chg("chg-51", "indirect", "Kristjan", "Niko", [
    ("2023-11-29T06:40", ["I'm exhausted.",
                          "Long week?",
                          "I row with the Pirita club on Monday and Wednesday mornings, and the alarm goes at five.",
                          "That's dedication."]),
    ("2024-02-07T08:30", ["Finally a lie-in!",
                          "What changed?",
                          "The Pirita crew trains on Tuesday and Thursday evenings now.",
                          "Enjoy the sleep."]),
], ["Tuesday"], ["Monday"], ["Thursday"])

chg("chg-52", "indirect", "Rania", "Wynn", [
    ("2023-12-03T23:00", ["I'm a sous-chef at Zaatar House in Amman, and tonight the chef let me design the dessert special.",
                          "What did you make?",
                          "Knafeh with pistachio ice cream.",
                          "That sounds incredible."]),
    ("2024-05-11T23:30", ["Strange first week running my own kitchen: since Chef Samir retired, I'm head chef at Zaatar House, and I still catch myself waiting for him to taste the sauces.",
                          "That must feel surreal.",
                          "It does. Good surreal.",
                          "Congratulations."]),
], ["head chef"], [["sous-chef", "sous chef"]])

# ---------------------------------------------------------------- stop
# quit 29, 41; cancelled 30, 51; gave up / given up 31, 42, 48, 52; stopped 32, 44;
# don't … any more 33; unsubscribed 34; called it quits 35; sold, won't get another 36;
# cut out 37; dropped 38; no longer 39, 47; packed in 40; kicked the habit 43; let lapse 45;
# stepped down 46; deleted 49; done with 50.

stop("stop-29", "plain", "Bilal", "Tali", [
    ("2024-01-04T12:30", ["I eat fast food for lunch most days.",
                          "Thanks for telling me. How's work?",
                          "Busy. Deadlines.",
                          "Good luck."]),
    ("2024-02-01T12:45", ["I quit fast food in January.",
                          "How do you feel?",
                          "Lighter. Hungrier.",
                          "Both make sense."]),
], ["fast food", "fast-food"])

stop("stop-30", "plain", "Gulnara", "Bex", [
    ("2024-01-08T19:00", ["I pay for a Peloton app subscription.",
                          "Do you use it often?",
                          "Most evenings.",
                          "Nice."]),
    ("2024-02-12T19:15", ["I cancelled my Peloton subscription.",
                          "Was it too expensive?",
                          "Yes, and I was bored.",
                          "Fair."]),
], ["Peloton"])

stop("stop-31", "plain", "Matías", "Lumi", [
    ("2024-01-12T20:00", ["I play the lottery every week.",
                          "Thanks. What else is new?",
                          "New glasses.",
                          "Nice."]),
    ("2024-02-16T20:20", ["I gave up the lottery this year.",
                          "What made you decide?",
                          "The maths.",
                          "Fair enough."]),
], ["lotter", "lotto"])

stop("stop-32", "plain", "Hiba", "Arlo", [
    ("2024-01-16T22:30", ["I take melatonin every night to help me sleep.",
                          "Thanks for telling me. Good day?",
                          "Long.",
                          "Rest well."]),
    ("2024-02-20T22:40", ["I stopped taking melatonin last month.",
                          "How are you sleeping?",
                          "Better, oddly.",
                          "Great."]),
], ["melatonin"])

stop("stop-33", "chatty", "Callum", "Niko", [
    ("2024-01-20T18:00", ["Alright! 😄 Big weekend planned, my mate's stag do in Aberdeen 🍻 "
                          "Every Friday I play five-a-side football with the lads at the Caird Park pitches, it's the highlight of my week honestly ⚽",
                          "A stag do and football, sounds like a full weekend. What's the plan for the stag?",
                          "Go-karting then a curry, classy stuff 😂",
                          "Very classy."]),
    ("2024-03-02T18:30", ["Hiya 👋 So I don't play the five-a-side any more, my ankle's been dodgy since January and the physio said enough 😩 "
                          "On the bright side I finally watched that new space film, absolute belter 🚀",
                          "Sorry about the ankle. Glad the film was good!",
                          "Cheers, small mercies lol",
                          "Exactly."]),
], ["five-a-side", "five a side", "5-a-side", "5 a side"])

stop("stop-34", "chatty", "Tanvi", "Wynn", [
    ("2024-01-24T19:30", ["Heyyy 👋 My HelloFresh box came today, we get it every week and honestly it saved my weeknights 🥗 "
                          "Tonight is some Korean beef thing, my flatmate is already hovering lol",
                          "Sounds tasty. Does your flatmate cook too?",
                          "Only toast 😂",
                          "Toast counts, just about."]),
    ("2024-03-06T19:45", ["Hi hi 😊 unsubscribed from HelloFresh finally, too pricey and sooo much cardboard 📦 "
                          "Also my sister got engaged!!! 💍 Mum is already planning a 500-person wedding lol",
                          "Congratulations to your sister! How is she feeling?",
                          "Overwhelmed already 😅",
                          "Understandable."]),
], ["HelloFresh", "Hello Fresh"])

stop("stop-35", "chatty", "Bogdan", "Tali", [
    ("2024-01-28T21:30", ["Salut! 🎲 Tuesday nights I play Dungeons & Dragons with my uni friends, I'm the dungeon master and we've been on the same campaign for 2 years lol. "
                          "My flatmate made pizza for everyone tonight so I'm stuffed 🍕😂",
                          "Pizza and friends, nice evening. What's on tomorrow?",
                          "Work, sadly lol",
                          "Someone has to."]),
    ("2024-03-10T21:40", ["Hey 😕 bit of a sad one, we called it quits on the D&D campaign, half the group moved to other cities for work. "
                          "Otherwise all good, my sister visited from Cluj with her new puppy 🐶",
                          "I'm sorry about the group. How was the puppy visit?",
                          "Chaos but cute 😂",
                          "Puppies usually are."]),
], ["Dungeons", "D&D", "DnD", "D & D"])

stop("stop-36", "chatty", "Anahí", "Bex", [
    ("2024-02-01T17:00", ["Holaa 😊 I ride my horse Tormenta every weekend at the stables outside Asunción 🐴 "
                          "she's a grumpy old mare but I adore her. Also we had chipa for breakfast, so today is already perfect lol",
                          "Sounds like a lovely weekend. How long have you had her?",
                          "Six years 🥹",
                          "That's a long friendship."]),
    ("2024-05-04T17:30", ["Hi... it was a hard decision but I sold Tormenta and I won't get another horse, the stable fees doubled 💔 "
                          "On the other hand my Sundays are free, so I joined my cousins for a barbecue",
                          "That sounds really hard. How are you feeling?",
                          "Sad, but it was the right call.",
                          "That's what matters."]),
], ["Tormenta", "horse"])

stop("stop-37", "terse", "Aziz", "Lumi", [
    ("2024-02-05T13:00", ["fizzy drinks. 2 cans a day.",
                          "Noted. Lunch?",
                          "kebab.",
                          "Enjoy."]),
    ("2024-03-11T13:10", ["cut out fizzy drinks. 3 weeks now.",
                          "How's it going?",
                          "headaches. better now.",
                          "Good."]),
], ["fizzy", "soda", "soft drink"])

stop("stop-38", "terse", "Klaudia", "Arlo", [
    ("2024-02-09T20:00", ["life drawing class. thursdays.",
                          "Charcoal or pencil?",
                          "charcoal.",
                          "Messy."]),
    ("2024-03-15T20:15", ["dropped life drawing. no time.",
                          "Work busy?",
                          "very.",
                          "Hang in there."]),
], ["drawing"])

stop("stop-39", "terse", "Hakan", "Niko", [
    ("2024-02-13T08:00", ["on antihistamines. cetirizine, daily.",
                          "Hay fever?",
                          "dust.",
                          "Ugh."]),
    ("2024-03-19T08:10", ["no longer on cetirizine. doc agreed.",
                          "How are you feeling?",
                          "fine so far.",
                          "Good."]),
], ["cetirizine", "antihistamine"])

stop("stop-40", "terse", "Euan", "Wynn", [
    ("2024-02-17T07:00", ["paper round. mornings, before school.",
                          "Cold out?",
                          "freezing.",
                          "Wrap up."]),
    ("2024-03-23T07:20", ["packed in the paper round. too cold.",
                          "Fair. Lie-ins now?",
                          "yes.",
                          "Enjoy them."]),
], ["paper round", "paper-round", "paperround", "newspaper"])

stop("stop-41", "typos", "Kiana", "Tali", [
    ("2024-02-21T23:30", ["i play fortnite evry nite till like 2am lol",
                          "That's late! Work tomorrow?",
                          "yeah ugh",
                          "Get some sleep."]),
    ("2024-03-27T23:00", ["quit fortnite, deleted it and everythng. sleep is amazng",
                          "How are the mornings?",
                          "actualy awake lol",
                          "Nice."]),
], ["fortnite"])

stop("stop-42", "typos", "Rubén", "Bex", [
    ("2024-02-25T21:00", ["i bet on football evry weekend on bet365, usualy lose lol",
                          "How much do you usually put on?",
                          "like 20 a week",
                          "Noted."]),
    ("2024-04-01T21:10", ["gave up the betting, deleted the app too",
                          "How does it feel?",
                          "more money for beer lol",
                          "Ha."]),
], ["betting", "bet365", "bets on", "bet on", "gambl"])

stop("stop-43", "typos", "Tahmina", "Lumi", [
    ("2024-02-29T18:00", ["i bite my nails so bad lol, its gross",
                          "Lots of people do. How's your week?",
                          "exams. stress",
                          "Good luck."]),
    ("2024-04-05T18:20", ["finaly kicked the nail biting habit!! took 5 weeks",
                          "Congratulations! What helped?",
                          "a rubber band on my wrist lol",
                          "Clever."]),
], ["nail"])

stop("stop-44", "typos", "Darnell", "Arlo", [
    ("2024-03-04T11:00", ["i go to church evry sunday at grace baptist",
                          "What do you like about it?",
                          "the choir mostly",
                          "Nice."]),
    ("2024-04-09T11:30", ["stoped going to grace baptist, long story",
                          "That's okay, you don't have to explain.",
                          "thx",
                          "Anytime."]),
], ["Grace Baptist", "church"])

stop("stop-45", "formal", "Cressida", "Niko", [
    ("2024-03-08T10:00", ["I subscribe to the London Review of Books in print, and each issue arrives by post every fortnight.",
                          "Do you read it cover to cover?",
                          "I aspire to, at any rate.",
                          "That's the spirit."]),
    ("2024-05-10T10:20", ["I have allowed my subscription to the London Review of Books to lapse, as the issues were accumulating unread on the hall table.",
                          "What will you read instead?",
                          "The novels on my shelves, which have waited patiently for years.",
                          "A good plan."]),
], ["London Review", "LRB"])

stop("stop-46", "formal", "Evander", "Wynn", [
    ("2024-03-12T20:00", ["I am a volunteer crew member with the Penlee lifeboat, and I attend training every Wednesday evening.",
                          "That's important work. How long have you done it?",
                          "Fourteen years this autumn.",
                          "Remarkable."]),
    ("2024-05-14T20:30", ["After fourteen years I have stepped down from the lifeboat crew; my knees are simply no longer equal to it.",
                          "That must be a difficult decision.",
                          "It was, but it was the right one.",
                          "I'm sure the crew will miss you."]),
], ["lifeboat"])

stop("stop-47", "formal", "Imogen", "Tali", [
    ("2024-03-16T07:30", ["I take a cold plunge in the lake each morning before breakfast.",
                          "Brave! How cold is the water at the moment?",
                          "Approximately six degrees.",
                          "Bracing."]),
    ("2024-05-18T07:45", ["I no longer take the morning cold plunge; my doctor advised against it, given my blood pressure.",
                          "That's sensible. How are you feeling?",
                          "Rather warmer, I must admit.",
                          "Silver linings."]),
], ["plunge", "cold-water", "cold water", "ice bath"])

stop("stop-48", "formal", "Anselm", "Bex", [
    ("2024-03-20T21:00", ["I enjoy a glass of red wine with dinner most evenings.",
                          "Thank you for mentioning it. How was your day?",
                          "Quiet and productive.",
                          "The best kind."]),
    ("2024-05-22T21:15", ["On my physician's advice, I have given up alcohol entirely.",
                          "How are you finding it?",
                          "Easier than I had feared.",
                          "Glad to hear it."]),
], ["wine", "alcohol"])

stop("stop-49", "indirect", "Mehwish", "Lumi", [
    ("2024-03-24T08:00", ["I'm a zombie this morning.",
                          "What kept you up?",
                          "TikTok. I scroll it in bed every night until about one.",
                          "That sounds like a tough morning."]),
    ("2024-05-26T08:15", ["Slept nine hours last night!",
                          "What's your secret?",
                          "I deleted TikTok from my phone, so now I read before bed.",
                          "That's a great change."]),
], ["TikTok", "Tik Tok"])

stop("stop-50", "indirect", "Aurelio", "Arlo", [
    ("2024-03-28T18:00", ["My shelves are bowing under the weight!",
                          "What's on them?",
                          "Vinyl records. I buy a few every Saturday at the Porta Portese flea market.",
                          "Quite a collection."]),
    ("2024-06-01T18:30", ["Moving day is coming, and I sold most of the vinyl last weekend.",
                          "That's a big step. Will you keep buying?",
                          "I'm done with the Saturday record hunts; the new flat is tiny.",
                          "Makes sense."]),
], ["vinyl", "record"])

stop("stop-51", "indirect", "Seda", "Niko", [
    ("2024-04-01T21:30", ["My daughter and I watched three episodes of a Korean drama last night; we pay for a Viki Pass just for the K-dramas.",
                          "Which drama?",
                          "A historical one with a lot of crying.",
                          "Sounds like the best kind."]),
    ("2024-06-05T21:45", ["My daughter sulked all evening because I cancelled Viki; we have to save up for her school trip to Yerevan.",
                          "She'll come round.",
                          "Eventually.",
                          "Teenagers."]),
], ["Viki"])

stop("stop-52", "indirect", "Esteban", "Wynn", [
    ("2024-04-05T16:00", ["Sunburnt nose!",
                          "Where were you out in the sun?",
                          "Birdwatching. I go out at dawn every Sunday with the Medellín birding club.",
                          "Did you see anything good?"]),
    ("2024-06-09T11:00", ["Sunday lie-ins are underrated.",
                          "No early start this week?",
                          "I gave up the birding club; my new shift pattern makes Sundays impossible.",
                          "That's a shame, but enjoy the rest."]),
], ["bird"])


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "cases.jsonl"), "w", encoding="utf-8") as f:
        for c in CASES:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(len(CASES), "cases")
