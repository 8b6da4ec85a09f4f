#!/usr/bin/env python3
"""Hand-written source of the fifth rules set (cases.jsonl). Standard library only.

Usage: python3 build.py   (writes cases.jsonl next to this file)

A case is written as: id, style, partner, agent, its sessions and its expectations.
A session is (gap_days, "HH:MM", [turn texts]); the partner speaks first and the speakers
alternate. The first session of case NNN (its number, 101-124) falls on 2023-01-03 + 7*NNN days;
gap_days of a later session counts from the previous session's date.
Matchers: a list is {"all": list}; stop(habit) and change(new, old) build the class matchers.
"""
import json
import os
from datetime import datetime, timedelta

# stop words: a memory about the habit that carries one of these is the stop, not the habit
# (the list of lab/data/rules-d plus the stop constructions this set adds: "that's over",
# "I'm off ...", "binned", "terminated", "withdrawn", "abstained", "stepped down", "leaving",
# "let it lapse", "swore off", "can't")
STOPW = ["quit", "stop", "gave up", "given up", "give up", "giving up", "no longer", "anymore",
         "any more", "cut out", "cancel", "discontinu", "drop", "packed in", "kicked", "ditch",
         "ceas", "called it", "calling it", "done with", "n't", "not ", "never", "without",
         "used to", "delet", "left ", "sold", "finish", "no more", "unsubscrib", "ended",
         "relinquish", "retir", "resign", "former", "gone", "dont ", "didnt", "doesnt",
         "over now", "all over", "s over", "is over", "are over", "'m off", "am off", "is off ",
         "off the", "binned", "terminat", "withdr", "abstain", "stepped down", "step down",
         "leaving", "laps", "swore off", "sworn off", "closed", "cant "]
# change words: a memory naming the old state together with one of these records the change
CHGW = ["used to", "former", "previous", "no longer", "anymore", "any more", "switch", "swap",
        "sold", "moved", "instead", "left ", "until", "stop", "quit", "replac", "traded",
        "transferred", "relocat", "resign", "changed", "these days", "nowadays", "gone from",
        "before", "earlier", "ex-", "not ", "broke up", "split", "divorc", "separat", "originally",
        "formerly", "at the moment", "no more"]

CASES = []
AGENTS = ["Nova", "Orrin", "Pell", "Vela"]


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
case("same-101", "plain", "Abebe", "Nova", [
    (0, "18:20", ["My sister Hiwot is a radiographer in Addis Ababa.", "Thanks, I'll keep that in mind."]),
    (12, "19:05", ["My sister Hiwot is a radiographer in Addis Ababa.", "Okay, noted."])],
    once=[["Hiwot", "radiograph"]])
case("same-102", "plain", "Birgitta", "Orrin", [
    (0, "09:40", ["I have a grey cat called Pumpernickel. She is eleven.", "Lovely. Does she like visitors?",
                  "Not really.", "Fair enough."]),
    (8, "10:15", ["Just so you know, my cat Pumpernickel is grey and eleven years old.", "Thank you, got it."])],
    once=[["Pumpernickel", ["eleven", "11"]]])
case("same-103", "plain", "Casimir", "Pell", [
    (0, "12:00", ["I'm allergic to hazelnuts.", "Understood. I'll remember that."]),
    (5, "20:30", ["What is a good film for a rainy Sunday?", "An old comedy is hard to beat."]),
    (9, "13:10", ["I'm allergic to hazelnuts.", "Thanks for the reminder."])],
    once=[["hazelnut"]])
case("same-104", "plain", "Dunja", "Vela", [
    (0, "17:45", ["I drive a red Citroen Berlingo.", "Noted. Is it practical?", "Very, lots of room.", "Good to hear."]),
    (14, "08:30", ["My car is a red Citroen Berlingo.", "Okay."])],
    once=[["Berlingo"]])
case("same-105", "chatty", "Edvard", "Nova", [
    (0, "21:10", ["Heyy! Long week 😅 anyway, fun fact about me: I play the accordion in a polka band called the Brass Buttons.",
                  "Ha, that sounds like a lot of fun! Do you play many gigs?", "Most weekends in summer 🎶", "Busy season then!"]),
    (20, "22:00", ["Back from the weekend gig, my feet hurt lol. Oh and I play the accordion in a polka band called the Brass Buttons, in case I never said.",
                   "Rest those feet! Sounds like a good night."])],
    once=[["accordion", "Brass Buttons"]])
case("same-106", "chatty", "Faustina", "Orrin", [
    (0, "19:30", ["Omg so I've been a volunteer firefighter with the Lindqvist Hollow brigade for three years now 🔥 best thing I ever signed up for",
                  "That's impressive! What's a typical call-out like?"]),
    (16, "18:50", ["ha yes, three years with the Lindqvist Hollow fire brigade as a volunteer, still love it. we had a chimney fire on Friday 😬",
                   "Glad everyone is safe!"])],
    once=[["Lindqvist", ["three", "3"]]])
case("same-107", "chatty", "Gaetano", "Pell", [
    (0, "16:15", ["Ciao! So, random, but my son Achille is seven and mad about volcanoes 🌋 he draws them everywhere",
                  "Ha, a budding scientist! What does he draw them on?", "Walls, mostly 😂", "Oh no!"]),
    (6, "12:40", ["any tips for a picnic when it might rain? lol", "Pack a tarp and keep the food in tubs."]),
    (11, "17:20", ["Sorry for vanishing! My son Achille is seven and mad about volcanoes. We went to the science museum and he refused to leave 😂",
                   "Sounds like a great day out."])],
    once=[["Achille", "volcano"]])
case("same-108", "chatty", "Heloise", "Vela", [
    (0, "20:45", ["So my partner Ruud and I got married in Nijmegen in 2020, tiny wedding, loads of cake 🎂",
                  "Aww, small weddings are the best."]),
    (25, "21:30", ["Ruud and I, we tied the knot back in 2020 in Nijmegen, did I say? best day ever 💍",
                   "It sounds like it was perfect."])],
    once=[["Nijmegen", "2020"]])
case("same-109", "terse", "Iskra", "Nova", [
    (0, "06:10", ["night shifts at the mail sorting hub, mon to thu", "ok, noted"]),
    (10, "06:25", ["night shifts at the mail sorting hub, mon to thu", "got it"])],
    once=[["sorting", "night"]])
case("same-110", "terse", "Jarek", "Orrin", [
    (0, "13:00", ["shoe size 46", "noted"]),
    (4, "13:30", ["weather rubbish again", "looks like rain all week"]),
    (7, "14:05", ["fyi shoes: size 46", "ok"])],
    once=[["46", "shoe"]])
case("same-111", "terse", "Kalyani", "Pell", [
    (0, "11:20", ["landlord is mr fennimore. nice guy", "good to know"]),
    (13, "11:50", ["landlord is mr fennimore", "ok"])],
    once=[["Fennimore"]])
case("same-112", "terse", "Leandro", "Vela", [
    (0, "22:10", ["brother tiago, 34, lives in porto", "noted"]),
    (9, "22:40", ["tiago (bro) - porto, 34", "got it"])],
    once=[["Tiago", "Porto"]])
case("same-113", "typos", "Marjeta", "Nova", [
    (0, "15:00", ["my grandma Zorka is 92 and still makes her own jam evry week", "That's wonderful. What kind of jam?",
                  "plum mostly", "Delicious."]),
    (18, "15:40", ["my grandma Zorka is 92 and still makes her own jam evry week", "Still going strong then!"])],
    once=[["Zorka", ["92", "ninety-two", "ninety two"]]])
case("same-114", "typos", "Nandor", "Orrin", [
    (0, "19:20", ["im learnig welding at the comunity college on wenesdays", "Nice skill to have."]),
    (12, "19:55", ["wendesday nights = welding class at the comunity colege still", "Good that it's going well."])],
    once=[["weld", ["wednes", "wenes", "wendes"]]])
case("same-115", "typos", "Olwen", "Pell", [
    (0, "10:30", ["i keep bees, two hives in the back gardn", "How lovely. Do you get much honey?", "loads last yr", "Great."]),
    (15, "10:50", ["i keep bees, two hives in the back gardn", "Got it."])],
    once=[[["bees", "beekeep"], ["two", "2"]]])
case("same-116", "typos", "Prosper", "Vela", [
    (0, "23:00", ["my flatmate Kanku is from Kinshasa, we share a flat in Lille", "Nice. Do you get on?", "ya hes great", "Good to hear."]),
    (10, "23:15", ["Kanku (flatemate) comes from kinshasa btw", "Thanks."])],
    once=[["Kanku", "Kinshasa"]])
case("same-117", "formal", "Quinta", "Nova", [
    (0, "09:00", ["I am a member of the board of governors at Ashcombe Primary School.", "Thank you for letting me know."]),
    (21, "09:30", ["I am a member of the board of governors at Ashcombe Primary School. We meet on the first Monday of each month.",
                   "Understood."])],
    once=[["Ashcombe", "governor"]])
case("same-118", "formal", "Rasmus", "Orrin", [
    (0, "14:20", ["I should mention that I have been a licensed auctioneer since 2014.", "Thank you, that is noted."]),
    (17, "14:45", ["As previously noted, I have held an auctioneer's licence since 2014.", "Of course."])],
    once=[["auctioneer", "2014"]])
case("same-119", "formal", "Severine", "Pell", [
    (0, "18:00", ["My mother, Odalys, resides in Biarritz.", "Thank you. Do you visit often?", "Twice a year, in spring and autumn.",
                  "That sounds pleasant."]),
    (7, "18:30", ["Could you recommend a novel suitable for a long train journey?", "A long family saga would suit well."]),
    (9, "19:00", ["My mother, Odalys, resides in Biarritz.", "Noted, thank you."])],
    once=[["Odalys", "Biarritz"]])
case("same-120", "formal", "Thorvald", "Vela", [
    (0, "08:15", ["I am employed as an actuary at Brekke & Lund.", "Thank you for the information."]),
    (19, "08:40", ["To restate, my position is that of actuary at Brekke & Lund.", "Understood."])],
    once=[["actuar", "Brekke"]])
case("same-121", "indirect", "Ulrike", "Nova", [
    (0, "17:30", ["My neighbour's dog escaped again yesterday and ended up asleep in my doorway. I run a secondhand bookshop in Graz called Eselsohr, so half my customers met him.",
                  "Ha, a shop dog for a day!"]),
    (22, "18:10", ["A man came in asking for a first edition of a cookbook, which made my week. I run a secondhand bookshop in Graz called Eselsohr, and those requests are rare.",
                   "What a nice surprise."])],
    once=[["Eselsohr"]])
case("same-122", "indirect", "Vuk", "Orrin", [
    (0, "20:00", ["When the power cut hit, I was halfway through feeding Dragoljub, my bearded dragon. He's five.",
                  "Hope the lights came back soon!"]),
    (14, "20:20", ["Dragoljub made a break for it under the sofa today, not bad for a five-year-old bearded dragon.",
                   "A great escape!"])],
    once=[["Dragoljub", ["five", "5"]]])
case("same-123", "indirect", "Wilma", "Pell", [
    (0, "07:30", ["Ugh, the hospital car park again. I work as a phlebotomist at St Brendan's, so parking is a daily fight.",
                  "That sounds frustrating."]),
    (11, "19:45", ["Funny thing today, a patient sang to me. I work as a phlebotomist at St Brendan's, so parking is a daily fight, but moments like that help.",
                   "That's a lovely moment."])],
    once=[["phlebotom"]])
case("same-124", "indirect", "Yevgenia", "Vela", [
    (0, "21:00", ["We were stuck on the M6 for hours coming back from my twin brother Lev's place in Carlisle.",
                  "That's a long drive. Did you get home safely?", "Eventually, around midnight.", "Good."]),
    (16, "21:20", ["Lev, my twin, phoned from Carlisle, where he lives, to say it's snowing there.", "Stay warm!"])],
    once=[["Lev", "Carlisle"]])

# ---------------------------------------------------------------- addition
case("add-101", "plain", "Adriel", "Nova", [
    (0, "18:00", ["I have a dog named Pancho.", "Nice. What breed?", "A mix.", "Okay."]),
    (15, "18:30", ["I got another dog, named Lulu.", "Congratulations."])],
    active=[["Pancho"], ["Lulu"]])
case("add-102", "plain", "Bronwen", "Orrin", [
    (0, "11:00", ["I speak Portuguese.", "Great."]),
    (9, "11:40", ["I also speak Dutch.", "Noted."])],
    active=[["Portugu"], ["Dutch"]])
case("add-103", "plain", "Cirilo", "Pell", [
    (0, "15:30", ["My brother is called Benigno.", "Thanks."]),
    (12, "16:00", ["My other brother is called Fidel.", "Got it."])],
    active=[["Benigno"], ["Fidel"]])
case("add-104", "plain", "Dorothea", "Vela", [
    (0, "19:00", ["I play the clarinet.", "How long have you played?", "Ten years.", "Nice."]),
    (20, "19:15", ["I play the mandolin too.", "Good."])],
    active=[["clarinet"], ["mandolin"]])
case("add-105", "chatty", "Elif", "Nova", [
    (0, "20:10", ["Sooo we adopted a rabbit called Nohut 🐰 he's tiny and already chewed a cable",
                  "Ha, rabbits love cables! Hide them well."]),
    (30, "20:40", ["Guess what, now we have two rabbits! 🐰🐰 the new one is Bulgur and she's the boss already",
                   "A bonded pair, lovely!"])],
    active=[["Nohut"], ["Bulgur"]])
case("add-106", "chatty", "Florentyna", "Orrin", [
    (0, "22:00", ["I've got a Saturday job at the cinema on Ogrodowa street 🍿 free films, can't complain",
                  "Free films is a great perk!"]),
    (18, "22:30", ["lol I'm picking up Sunday shifts at a bike shop as well now, busy busy 😅 saving for a trip",
                   "Where are you hoping to go?", "Iceland!!", "Amazing."])],
    active=[["cinema"], ["bike shop"]])
case("add-107", "chatty", "Gedeon", "Pell", [
    (0, "19:45", ["Our book club meets at the Lantern Cafe every other Tuesday, love it 📚",
                  "That sounds cosy. What are you reading?", "Something about lighthouses, it's slow 😴", "Ha, hang in there."]),
    (14, "20:00", ["Plus I've started going to a board games night at the Hops & Dice pub on Fridays 🎲 very competitive crowd",
                   "Sounds fun."])],
    active=[["Lantern"], ["Hops"]])
case("add-108", "chatty", "Hortensia", "Vela", [
    (0, "17:00", ["My aunt Consuelo lives with us, she's lovely and cooks for everyone 💕", "That sounds like a warm house."]),
    (21, "17:30", ["The house is FULL now 😂 Aunt Consuelo has been joined by my cousin Reinaldo, who's staying with us for his studies 📚",
                   "Plenty of company then!"])],
    active=[["Consuelo"], ["Reinaldo"]])
case("add-109", "terse", "Ivana", "Nova", [
    (0, "08:00", ["kids: marek, 8", "ok"]),
    (40, "08:20", ["baby girl born tues. hedvika. tired", "congratulations!"])],
    active=[["Marek"], ["Hedvika"]])
case("add-110", "terse", "Jovan", "Orrin", [
    (0, "12:10", ["allergic to amoxicillin", "noted"]),
    (11, "12:30", ["also allergic to strawberries, turns out", "noted, thanks"])],
    active=[["amoxicillin"], ["strawberr"]])
case("add-111", "terse", "Kallisto", "Pell", [
    (0, "18:40", ["have a motorbike. old honda", "nice"]),
    (19, "18:55", ["bought a second bike. ducati scrambler", "enjoy"])],
    active=[["Honda"], ["Ducati"]])
case("add-112", "terse", "Lavinia", "Vela", [
    (0, "10:00", ["volunteer at the oxfam bookshop sat mornings", "ok"]),
    (13, "10:20", ["helping at the hospice too now, tues eves", "good of you"])],
    active=[["Oxfam"], ["hospice"]])
case("add-113", "typos", "Modesto", "Nova", [
    (0, "21:30", ["i colect vintage radios, got a whole shelf", "Nice. Do they work?", "most of them lol", "Impressive."]),
    (17, "21:45", ["started colecting old typewriters as well lol my wife is not happy", "Ha, space might get tight."])],
    active=[["radio"], ["typewrit"]])
case("add-114", "typos", "Nerys", "Orrin", [
    (0, "16:00", ["my daugter Ffion is at uni in Aberystwyth", "How is she finding it?"]),
    (28, "16:30", ["my other daugter Gwenllian just started at Bangor", "Exciting times."])],
    active=[["Ffion"], ["Gwenllian"]])
case("add-115", "typos", "Oswin", "Pell", [
    (0, "19:10", ["our cat is caled Mortimer, hes a grumpy old boy", "Ha, cats earn their grumpiness."]),
    (12, "19:30", ["brought home a kitten today, calld her Sprout", "So sweet."])],
    active=[["Mortimer"], ["Sprout"]])
case("add-116", "typos", "Perla", "Vela", [
    (0, "07:00", ["i work at a cafe called Tostado in the mornings", "Busy mornings then."]),
    (16, "22:15", ["got anothr job, evenings at a laundrette on Calle Mayor", "That's a long day."])],
    active=[["Tostado"], ["laundr"]])
case("add-117", "formal", "Quirin", "Nova", [
    (0, "10:30", ["I am a member of the Otterburn Rambling Association.", "Thank you for telling me."]),
    (23, "10:45", ["Furthermore, I have recently become a member of the Tyneside Camera Circle.", "Noted, thank you."])],
    active=[["Otterburn"], ["Tyneside"]])
case("add-118", "formal", "Rozalia", "Orrin", [
    (0, "14:00", ["I am fluent in Hungarian.", "That is a valuable skill."]),
    (10, "14:30", ["I should add that I am also fluent in Slovak.", "Thank you."])],
    active=[["Hungarian"], ["Slovak"]])
case("add-119", "formal", "Stanislav", "Pell", [
    (0, "17:15", ["I own a holiday cottage in the Tatra mountains near Zakopane.", "That must be a restful place."]),
    (35, "17:45", ["I have purchased a second property, an apartment in Sopot on the Baltic coast.", "Congratulations on the purchase."])],
    active=[["Zakopane"], ["Sopot"]])
case("add-120", "formal", "Thea", "Vela", [
    (0, "08:30", ["I take amlodipine each morning for my blood pressure.", "Thank you for letting me know."]),
    (20, "08:45", ["My physician has prescribed atenolol as well as the amlodipine.", "Understood."])],
    active=[["amlodipine"], ["atenolol"]])
case("add-121", "indirect", "Urszula", "Nova", [
    (0, "18:30", ["My son Kacper spent the whole weekend building a treehouse with my dad, and it actually looks safe.",
                  "What a project!"]),
    (60, "07:50", ["Chaos at breakfast: Kacper and his baby sister Jagoda, who was born in March, both woke at five.",
                   "That's an early start for everyone."])],
    active=[["Kacper"], ["Jagoda"]])
case("add-122", "indirect", "Venkat", "Orrin", [
    (0, "13:20", ["The plumber finally came, and while he worked I watered my bonsai, a juniper I've had for ten years.",
                  "Ten years is a long time to care for one tree."]),
    (24, "13:40", ["My wife surprised me for our anniversary with a bonsai maple, so now I have two to fuss over.",
                   "What a thoughtful gift."])],
    active=[["juniper"], ["maple"]])
case("add-123", "indirect", "Winifred", "Pell", [
    (0, "22:30", ["At quiz night our team, the Quizzly Bears, came second on a tie-break, which was gutting.",
                  "So close! Better luck next time."]),
    (14, "22:50", ["I'm on a darts team now too, the Oche Dears, and we played our first match on Tuesday. I hit a 180, nobody believed me.",
                   "Ha, well done!"])],
    active=[["Quizzly"], ["Oche"]])
case("add-124", "indirect", "Zbigniew", "Vela", [
    (0, "19:00", ["I was out with my friend Radosław at the lake when the storm hit, and we got soaked.",
                  "Hope you both dried off!"]),
    (18, "19:30", ["My new friend Wiesiek, who I met at the model railway club, came over for the match and brought pierogi.",
                   "Sounds lovely."])],
    active=[[["Radosław", "Radoslaw"]], ["Wiesiek"]])

# ---------------------------------------------------------------- change
change("chg-101", "plain", "Alvar", "Nova", [
    (0, "18:10", ["I work at a call centre in Malmö.", "Thanks for telling me."]),
    (30, "18:40", ["I switched jobs. I now work at a hotel front desk in Malmö.", "Good luck with it."])],
    new=["hotel"], old=["call cent"])
change("chg-102", "plain", "Benedek", "Orrin", [
    (0, "09:10", ["I am an accountant at a bank.", "Noted."]),
    (60, "09:30", ["I run a food stall at the Sunday market now.", "What do you sell?", "Langos.", "Sounds tasty."])],
    new=["stall"], old=["accountant"])
change("chg-103", "plain", "Carys", "Pell", [
    (0, "20:00", ["My phone is a Motorola.", "Okay."]),
    (25, "20:15", ["I got a new phone, a Nokia.", "Nice."])],
    new=["Nokia"], old=["Motorola"])
change("chg-104", "plain", "Dobromir", "Vela", [
    (0, "12:30", ["I live in a flat in Plovdiv.", "Thanks."]),
    (45, "12:50", ["My new address is a house in Varna.", "Congratulations on the house."])],
    new=["Varna"], old=["Plovdiv"])
change("chg-105", "chatty", "Emeric", "Nova", [
    (0, "07:15", ["I'm doing intermittent fasting, 16:8, and honestly it's going great 💪", "Glad it suits you!"]),
    (40, "07:30", ["ok update: swapped the fasting for a high-protein plan my trainer gave me, way less hangry 😂",
                   "Ha, less hangry is a win."])],
    new=["protein"], old=["fasting"])
change("chg-106", "chatty", "Filomena", "Orrin", [
    (0, "21:00", ["My boyfriend Renato is taking me to Rome for my birthday!! 🥳", "How exciting, have a wonderful time!"]),
    (70, "21:30", ["So much happened 🙈 Renato and I broke up in spring, and now I'm seeing Matteo, he's a sculptor and so calm",
                   "It sounds like a good change.", "it really is ✨", "Happy for you."])],
    new=["Matteo"], old=["Renato"])
change("chg-107", "chatty", "Gwilym", "Pell", [
    (0, "08:05", ["I commute to work on the 38 bus every morning, it's always packed 🙄", "Rush hour is rough."]),
    (35, "08:20", ["These days I cycle to work along the river path, so much nicer ☀️ and I get there faster lol",
                   "Fresh air and a shorter trip, perfect."])],
    new=["cycl"], old=["38", "bus"])
change("chg-108", "chatty", "Hedda", "Vela", [
    (0, "16:30", ["My car's a little Opel Corsa, bright yellow, I love her 💛", "A yellow car is easy to find in a car park!"]),
    (50, "16:45", ["Traded the Corsa in for a Tesla Model 3!! electric life ⚡", "Enjoy the quiet ride."])],
    new=["Tesla"], old=["Corsa"])
change("chg-109", "terse", "Ignatius", "Nova", [
    (0, "19:40", ["team: hendon harriers. goalie", "ok"]),
    (55, "19:50", ["playing for barnet rovers now. still goalie", "good luck"])],
    new=["Barnet"], old=["Hendon"])
change("chg-110", "terse", "Jelena", "Orrin", [
    (0, "13:10", ["live in zagreb, tresnjevka", "noted"]),
    (60, "13:20", ["moved to rijeka in may", "ok"])],
    new=["Rijeka"], old=["Zagreb"])
change("chg-111", "terse", "Kaspar", "Pell", [
    (0, "17:00", ["son ruben, year 4 at oakfield primary", "noted"]),
    (90, "17:20", ["ruben now at hillcrest school", "ok, thanks"])],
    new=["Hillcrest"], old=["Oakfield"])
change("chg-112", "terse", "Ludovica", "Vela", [
    (0, "12:00", ["diet: low carb", "ok"]),
    (30, "12:10", ["at the moment eating plant-based", "noted"])],
    new=["plant"], old=[["low carb", "low-carb"]])
change("chg-113", "typos", "Mattias", "Nova", [
    (0, "22:20", ["my laptop is a old thinkpad, keeps crashing", "That's annoying. Have you tried a reinstall?"]),
    (20, "22:40", ["finaly replaced the thinkpad with a macbook air, so fast", "Enjoy it."])],
    new=["MacBook"], old=["ThinkPad"])
change("chg-114", "typos", "Niamh", "Orrin", [
    (0, "18:00", ["i work in the deli at Dunnes", "How do you like it?", "its ok, cold hands", "Ha."]),
    (30, "18:30", ["got moved to the checkouts in Dunnes, no more deli thank god", "Warmer hands now."])],
    new=["checkout"], old=["deli"])
change("chg-115", "typos", "Ottokar", "Pell", [
    (0, "10:10", ["my bank is sparkasse", "ok"]),
    (25, "10:40", ["changed bank, im with n26 now. the app is beter", "Good."])],
    new=["N26"], old=["Sparkasse"])
change("chg-116", "typos", "Petronella", "Vela", [
    (0, "20:10", ["we rent a tiny flat above a chipshop in Hull", "Smells nice at least?", "not realy lol", "Ha."]),
    (80, "20:40", ["were in a bungalow in Bridlington these days, got a garden finaly", "That's lovely."])],
    new=["Bridlington"], old=["Hull"])
change("chg-117", "formal", "Raimund", "Nova", [
    (0, "09:00", ["I am a partner at the law firm Eberhardt & Voss.", "Thank you for letting me know."]),
    (120, "09:20", ["I have now taken up a teaching post in commercial law at the University of Innsbruck.",
                    "Congratulations on the appointment."])],
    new=["Innsbruck"], old=["Eberhardt"])
change("chg-118", "formal", "Serafina", "Orrin", [
    (0, "15:00", ["I reside in Valletta with my husband.", "Thank you."]),
    (60, "15:20", ["We have since taken up residence in Gozo, in a farmhouse near the coast.", "That sounds peaceful."])],
    new=["Gozo"], old=["Valletta"])
change("chg-119", "formal", "Tadeo", "Pell", [
    (0, "11:00", ["My mobile provider is Orange.", "Noted."]),
    (30, "11:30", ["I have transferred my mobile contract from Orange to Free Mobile.", "Understood."])],
    new=["Free Mobile"], old=["Orange"])
change("chg-120", "formal", "Ursula", "Vela", [
    (0, "14:10", ["I manage payroll at Thornbury Mills.", "Thank you."]),
    (45, "14:40", ["I have accepted a new position as head of procurement at Thornbury Mills.", "Congratulations."])],
    new=["procurement"], old=["payroll"])
change("chg-121", "indirect", "Valter", "Nova", [
    (0, "19:20", ["My landlady in Ljubljana brought me a strudel today, she's a sweetheart.", "How kind of her."]),
    (50, "23:50", ["The removal van got lost on the way to my new place in Maribor, so I unpacked at midnight.",
                   "What a long day."])],
    new=["Maribor"], old=["Ljubljana"])
change("chg-122", "indirect", "Wanda", "Orrin", [
    (0, "22:00", ["My shift at the ice rink ran late because the resurfacer broke down. I've sharpened skates there for three years.",
                  "Late nights at work are tiring."]),
    (40, "15:30", ["My first week as a school crossing guard went fine, though a kid tried to high-five me in the middle of the road.",
                   "Ha, keen kid!"])],
    new=["crossing guard"], old=[["ice rink", "skate"]])
change("chg-123", "indirect", "Yusra", "Pell", [
    (0, "09:45", ["I dropped my Huawei in the bath last night, but it survived!", "Lucky!"]),
    (30, "21:10", ["My new Fairphone has a camera so good that I shot the eclipse from the balcony.",
                   "That must look great."])],
    new=["Fairphone"], old=["Huawei"])
change("chg-124", "indirect", "Zdenek", "Vela", [
    (0, "21:40", ["After training with Slavoj Trebic on Thursday my calves were dead.", "Stretch well!"]),
    (40, "18:00", ["We lost 3-1 in my first game for the Jihlava Lions, but the coach said I was the best on the pitch.",
                   "A good start for you then."])],
    new=["Jihlava"], old=["Slavoj"])

# ---------------------------------------------------------------- stop
stop("stop-101", "plain", "Anneliese", "Nova", [
    (0, "18:00", ["I go to a pilates class every Monday.", "Nice."]),
    (30, "18:20", ["I quit pilates.", "Okay."])],
    habit=["pilates"])
stop("stop-102", "plain", "Bartolo", "Orrin", [
    (0, "21:00", ["I eat crisps every night.", "Noted."]),
    (20, "21:10", ["I gave up crisps.", "Good for you."])],
    habit=["crisps"])
stop("stop-103", "plain", "Cecilia", "Pell", [
    (0, "20:30", ["I have a Hulu subscription.", "Okay."]),
    (40, "20:45", ["I cancelled Hulu.", "Noted."])],
    habit=["Hulu"])
stop("stop-104", "plain", "Desislava", "Vela", [
    (0, "19:00", ["I play contract bridge at a club on Wednesdays.", "Fun."]),
    (35, "19:15", ["I no longer play bridge.", "Okay."])],
    habit=["bridge"])
stop("stop-105", "chatty", "Evert", "Nova", [
    (0, "10:00", ["Every Sunday I do the crossword with my dad ☕ our little ritual", "That's a sweet tradition."]),
    (60, "10:30", ["Dad's been in hospital a lot, so we don't do the Sunday crossword anymore 😢 miss it", "I'm sorry to hear that."])],
    habit=["crossword"])
stop("stop-106", "chatty", "Fabiola", "Orrin", [
    (0, "12:00", ["My weekend thing is my dinghy, I sail on the lake every Saturday ⛵ so relaxing", "Sounds blissful."]),
    (50, "12:20", ["Big news-ish: I sold off the dinghy, too much faff with storage 🤷‍♀️", "Fair enough."])],
    habit=["dinghy"])
stop("stop-107", "chatty", "Gerold", "Pell", [
    (0, "23:30", ["Every night I play Call of Duty till 2am with the lads 🎮 #noregrets", "Ha, long nights!"]),
    (45, "08:00", ["New job, new me 😅 my Call of Duty nights, that's all over now. in bed by 11", "Sounds healthy."])],
    habit=["Call of Duty"])
stop("stop-108", "chatty", "Honorata", "Vela", [
    (0, "19:30", ["I have a cheeky gin and tonic most evenings 🍸 it's my little treat", "Cheers to that!"]),
    (40, "19:45", ["I'm off the gin and tonics since January, feeling amazing ✨", "Good for you!"])],
    habit=[["gin and tonic", "gin & tonic", "g&t", "gin-and-tonic"]])
stop("stop-109", "terse", "Ishaan", "Nova", [
    (0, "07:00", ["snooze button x5 every morning", "ha"]),
    (30, "07:10", ["kicked the snooze habit. up at first alarm", "nice"])],
    habit=["snooze"])
stop("stop-110", "terse", "Jindra", "Orrin", [
    (0, "06:30", ["crossfit 5x a week", "ok"]),
    (60, "06:45", ["haven't done crossfit since the shoulder thing in march", "ouch"])],
    habit=["crossfit"])
stop("stop-111", "terse", "Kornelia", "Pell", [
    (0, "17:00", ["umpire for village cricket, most sundays", "noted"]),
    (90, "17:15", ["retired from umpiring. knees", "understood"])],
    habit=["umpir"])
stop("stop-112", "terse", "Leocadia", "Vela", [
    (0, "09:00", ["sunday car boot sales, selling old stuff", "ok"]),
    (40, "09:20", ["car boot days are over. too early", "fair"])],
    habit=["car boot"])
stop("stop-113", "typos", "Milos", "Nova", [
    (0, "18:30", ["i play warhamer evry wensday at the games shop", "Fun, which army?", "orks obviously", "Ha."]),
    (40, "18:45", ["stoped going to warhamer, the shop shut down", "That's a shame."])],
    habit=["warham"])
stop("stop-114", "typos", "Nanette", "Orrin", [
    (0, "19:00", ["i go to zumba on tuesdays n thursdays", "Great fun."]),
    (30, "19:20", ["no more zumba for me, my hip cant take it", "Look after that hip."])],
    habit=["zumba"])
stop("stop-115", "typos", "Octavian", "Pell", [
    (0, "20:00", ["i got a gym membrship at puregym", "Nice."]),
    (25, "20:10", ["canceled my puregym membrship finaly, never went", "Fair enough."])],
    habit=[["PureGym", "Pure Gym"]])
stop("stop-116", "typos", "Przemek", "Vela", [
    (0, "05:30", ["i go fishing evry sunday at the resevoir with my bro", "Early mornings!"]),
    (45, "05:50", ["dont go fishing no more, sold the rods", "Okay."])],
    habit=["fishing"])
stop("stop-117", "formal", "Rosamund", "Nova", [
    (0, "10:00", ["I attend a weekly watercolour class at the Pemberton Institute.", "How pleasant."]),
    (60, "10:20", ["I have withdrawn from the watercolour class at the Pemberton Institute.", "Understood."])],
    habit=[["watercolour", "watercolor"]])
stop("stop-118", "formal", "Sten", "Orrin", [
    (0, "08:00", ["I am a subscriber to the Financial Times.", "Noted."]),
    (40, "08:20", ["My subscription to the Financial Times has ended; I chose to let it go.", "Understood."])],
    habit=["Financial Times"])
stop("stop-119", "formal", "Teofil", "Pell", [
    (0, "21:00", ["I customarily take a glass of port after dinner.", "A fine custom."]),
    (50, "21:15", ["On medical advice, I have abstained from my glass of port for some months.", "I hope your health improves."])],
    habit=[["glass of port", "port wine", "of port"]])
stop("stop-120", "formal", "Uma", "Vela", [
    (0, "18:00", ["I chair the residents' association of Larkfield Court.", "A demanding role."]),
    (70, "18:30", ["I stepped down as chair of the Larkfield Court residents' association last month.", "Thank you for telling me."])],
    habit=["Larkfield"])
stop("stop-121", "indirect", "Vidar", "Nova", [
    (0, "20:00", ["I run with the Lakeside Striders on Tuesdays, and this week a heron flew right above us.", "What a sight!"]),
    (60, "20:30", ["Since leaving the Striders I've had more time, and yesterday I finally fixed the shed door.", "Well done."])],
    habit=["Striders"])
stop("stop-122", "indirect", "Wojtek", "Orrin", [
    (0, "22:00", ["I ring bells at St Mary's every Thursday. Last week on the way home I found a wallet and handed it in.",
                  "That was honest of you."]),
    (60, "22:20", ["Since my hearing went I've given up bell-ringing, and oddly what I miss most is the tea afterwards.",
                   "That's understandable."])],
    habit=[["ring bells", "bell-ring", "bell ring", "bellring", "bells"]])
stop("stop-123", "indirect", "Xenia", "Pell", [
    (0, "17:30", ["I have a Hebrew lesson every Wednesday. Today my bike got a puncture on the way, so I arrived soaked.",
                  "What a day!"]),
    (50, "16:00", ["Since I let the Hebrew lessons lapse my Wednesdays are free, so I took my niece to the zoo.", "Sounds fun."])],
    habit=["Hebrew"])
stop("stop-124", "indirect", "Zuleika", "Vela", [
    (0, "08:10", ["Every morning I grab a pain au chocolat at the station kiosk, and today I saw my old headmistress there.",
                  "Small world!"]),
    (60, "08:30", ["Since I swore off pastries, pain au chocolat included, I've lost three kilos, and my old headmistress noticed.",
                   "Well done!"])],
    habit=["pain au chocolat"])


def build():
    out = []
    base = datetime(2023, 1, 3)
    for c in CASES:
        k = int(c["id"].split("-")[1])
        day = base + timedelta(days=7 * k)
        sessions = []
        for gap, hm, texts in c["sessions"]:
            day = day + timedelta(days=gap)
            h, mi = map(int, hm.split(":"))
            at = day.replace(hour=h, minute=mi)
            turns = [{"speaker": c["partner"] if i % 2 == 0 else c["agent"], "text": t}
                     for i, t in enumerate(texts)]
            sessions.append({"at": at.strftime("%Y-%m-%dT%H:%M"), "turns": turns})
        out.append({"id": c["id"], "class": c["cls"], "style": c["style"], "partner": c["partner"],
                    "agent": c["agent"], "sessions": sessions,
                    "expect": {"active": c["active"], "once": c["once"], "retired": c["retired"],
                               "absent": []}})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for o in out:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    build()
