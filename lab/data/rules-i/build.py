#!/usr/bin/env python3
"""Hand-written source of the rules-i set (cases.jsonl). Standard library only.

Usage: python3 build.py   (writes cases.jsonl next to this file)

A case is: id, style, partner, agent, sessions, expectations. A session is
(gap_days, "HH:MM", [turn texts]); the partner speaks first and speakers alternate.
The first session of case k (id number 501-524) is on 2023-01-03 + 7*(k-500) days;
gap_days of a later session counts from the previous session's date.
STOPW, CHGW and the case/stop/change helpers are copied from lab/data/rules-h/build.py.
"""
import json
import os
from datetime import datetime, timedelta

STOPW = ["quit", "stop", "gave up", "given up", "give up", "giving up", "no longer", "anymore",
         "any more", "cut out", "cancel", "discontinu", "drop", "packed in", "kicked", "ditch",
         "ceas", "called it", "calling it", "done with", "n't", "not ", "never", "without",
         "used to", "delet", "left ", "sold", "finish", "no more", "unsubscrib", "ended",
         "relinquish", "retir", "resign", "former", "gone", "dont ", "didnt", "doesnt"]
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

case("same-501", "plain", "Aurick", "Lumen", [
    (0, "09:10", ["My landlady is called Mrs Penhallow. She lives downstairs.", "That sounds handy if anything breaks."]),
    (21, "18:40", ["The heating clanked all night.", "Sorry to hear it. Did you get any sleep?",
                   "Not much. Mrs Penhallow, my landlady, is sending someone round tomorrow.", "Good, fingers crossed it's a quick fix."]),
], once=[["Penhallow", ["landlady", "landlord"]]])

case("same-502", "plain", "Venetia", "Sable", [
    (0, "07:30", ["I work night shifts at the Harbourline freight warehouse.", "Those hours must take some getting used to."]),
    (14, "07:45", ["Morning. Just got home.", "Long one?",
                   "Yes. Still on nights at the Harbourline warehouse, same as always.", "Get some rest then."]),
], once=[["Harbourline", "warehouse"]])

case("same-503", "plain", "Casimiro", "Tarn", [
    (0, "17:00", ["My daughter Brielle is seven. She knows the name of every dinosaur.", "Seven is a lovely age."]),
    (30, "16:20", ["Brielle is seven and she dragged me round the dinosaur museum today.", "That's a big moment, well done to her."]),
], once=[["Brielle", ["seven", "7"]]])

case("same-504", "plain", "Nimue", "Wick", [
    (0, "12:00", ["I have a terrapin called Gormley. He is 40 years old.", "He must have seen a lot in that time."]),
    (10, "12:30", ["It is warm today.", "Nice for a change."]),
    (20, "11:15", ["Gormley, my terrapin, is 40. Older than my car and my marriage.", "Ha, that's quite a record."]),
], once=[["Gormley", ["40", "forty"]]])

case("same-505", "chatty", "Eluned", "Pax", [
    (0, "20:05", ["Omg what a week 😅 anyway!! we finally booked it, we're getting married on 9 August in Portmeirion 💍", "Congratulations! What a setting.",
                  "I know right, I've wanted it since I was a kid haha", "Then it sounds perfect."]),
    (35, "21:10", ["Wedding planning update 🌸 still 9 August, still Portmeirion, and the florist is finally sorted, phew", "That's one big job ticked off."]),
], once=[["Portmeirion", "August"]])

case("same-506", "chatty", "Fflur", "Ember", [
    (0, "10:40", ["soooo my big brother Torben runs a surf school in Newquay, he's obsessed 🏄 honestly the tan on him", "Sounds like he found his calling."]),
    (42, "09:55", ["ugh rainy Monday ☔", "Cosy day indoors then?",
                   "yeah lol. Torben says his surf school in Newquay is booked solid all summer, jealous!!", "He must be thrilled."]),
], once=[["Torben", "surf"]])

case("same-507", "chatty", "Gawain", "Quorra", [
    (0, "13:15", ["fun fact about me: codeine makes me horribly sick 😬 found out at 19 the hard way lol", "Good to know, that sounds miserable."]),
    (28, "14:00", ["new doctor today!! had to explain the codeine thing all over again, I should get a t-shirt printed 😂", "Might save you some time."]),
], once=[["codeine"]])

case("same-508", "chatty", "Hortense", "Mirth", [
    (0, "19:30", ["So excited!! 👶👶 my sister Calla is expecting twins in March, we only found out yesterday", "What wonderful news for your family."]),
    (21, "19:10", ["Baby shopping with Calla today, her twins are due in March and she's already huge haha 💕", "Sounds like a fun day out."]),
], once=[["Calla", "twins"]])

case("same-509", "terse", "Ishmael", "Fennick", [
    (0, "08:00", ["glove size 11. always a pain.", "Larger sizes can be tricky to find."]),
    (25, "08:20", ["need winter gloves.", "Any particular size?", "glove size 11, same as ever.", "I'll keep that in mind."]),
], once=[["glove", ["11", "eleven"]]])

case("same-510", "terse", "Jocelyn", "Halcyon", [
    (0, "22:10", ["flat's on floor 9. no lift.", "That's a lot of steps."]),
    (16, "22:30", ["shopping day. ninth floor, no lift. legs gone.", "Sounds like a workout."]),
], once=[["floor", ["9", "ninth", "nine"]]])

case("same-511", "terse", "Kalevi", "Brisk", [
    (0, "15:00", ["sister Aune lives in Tampere.", "Do you visit often?", "twice a year.", "Nice."]),
    (40, "15:30", ["off to Tampere fri. Aune's place, she lives there.", "Safe travels."]),
], once=[["Aune", "Tampere"]])

case("same-512", "terse", "Lorna", "Orrick", [
    (0, "11:00", ["drive a green Lada Niva.", "Tough little cars."]),
    (18, "11:20", ["green niva needs tyres. again.", "That gets pricey."]),
], once=[["Niva"]])

case("same-513", "typos", "Mungo", "Lumen", [
    (0, "18:00", ["my grandad is 97 and stil lives on his own in Oban", "That's impressive independence."]),
    (33, "18:45", ["went up to see grandad, 97 and on his own in oban and bright as a buton", "Sounds like a good visit."]),
], once=[[["97", "ninety-seven", "ninety seven"], "Oban"]])

case("same-514", "typos", "Nuala", "Sable", [
    (0, "21:00", ["i teach tai chi on tuesdays at the Wrenfield comunity hall", "How long have you been teaching?", "about 3 yrs", "Lovely."]),
    (14, "21:15", ["tuesday tai chi at wrenfield hall went grate tonite, 20 peple came", "That's a great turnout."]),
], once=[["Wrenfield", "tai chi"]])

case("same-515", "typos", "Orville", "Tarn", [
    (0, "07:15", ["my dog Crumpet is a labrador, hes 5", "A classic family dog."]),
    (50, "07:05", ["morning", "Morning! Up early?", "crumpet my labradore woke me, hes 5 but acts like a puppy", "Ha, some dogs never grow up."]),
], once=[["Crumpet", "labrador"]])

case("same-516", "typos", "Pernell", "Wick", [
    (0, "23:00", ["im doing a masters in glaciology at lancaster uni", "That's a great field."]),
    (27, "23:30", ["glaciolgy masters at lancaster is kiling me this term lol", "Hang in there, you're doing well."]),
], once=[["Lancaster", ["glaciology", "glaciolgy"]]])

case("same-517", "formal", "Quenby", "Pax", [
    (0, "10:00", ["I should mention at the outset that I am a qualified solicitor, specialising in family law.", "Thank you, that is useful context."]),
    (45, "10:30", ["As a solicitor practising family law, I encounter questions of this kind every week.", "I imagine they can be difficult."]),
], once=[["solicitor", "family law"]])

case("same-518", "formal", "Rosita", "Ember", [
    (0, "16:00", ["My husband, Emlyn, is a lighthouse keeper on the Isle of Muck.", "What an unusual occupation."]),
    (60, "16:10", ["Good afternoon.", "Good afternoon, how are you?",
                   "Very well. Emlyn continues in his post as keeper of the lighthouse on Muck, and is content.", "I'm glad to hear it."]),
], once=[["Emlyn", "lighthouse"]])

case("same-519", "formal", "Sholto", "Quorra", [
    (0, "19:00", ["I have been a member of the Linthorpe Film Society since 2011.", "That's a long membership."]),
    (22, "19:20", ["I have belonged to the Linthorpe Film Society since 2011, and tonight we screen Kurosawa.", "Enjoy the screening."]),
], once=[["Linthorpe", "2011"]])

case("same-520", "formal", "Thelma", "Mirth", [
    (0, "08:30", ["For my hypertension I take 5 milligrams of indapamide each morning.", "Thank you for letting me know."]),
    (35, "08:40", ["My pharmacy queried my prescription; my dose of indapamide remains 5 milligrams each morning.", "It's good they double-check."]),
], once=[["indapamide", ["5", "five"]]])

case("same-521", "indirect", "Urban", "Fennick", [
    (0, "22:00", ["Long day.", "What kept you busy?", "Rehearsals. I play trombone in the Castlegate brass band.", "Sounds like fun, if tiring."]),
    (30, "17:00", ["Nervous tonight.", "Why's that?", "Concert with Castlegate, and I have a trombone solo.", "You'll be great."]),
], once=[["trombone", "Castlegate"]])

case("same-522", "indirect", "Valery", "Halcyon", [
    (0, "18:00", ["The kids next door asked what I do.", "What did you tell them?", "That I fix lifts for a living, at Vertiq Elevators.", "They must have been impressed."]),
    (20, "19:00", ["Got stuck in a lift at the shopping centre today.", "Oh no, for how long?", "Ten minutes. Funny, given I fix lifts at Vertiq all week.", "That is quite the irony."]),
], once=[["Vertiq", ["lift", "elevator"]]])

case("same-523", "indirect", "Wendel", "Brisk", [
    (0, "21:30", ["Finally watched the film you suggested.", "What did you think?",
                  "Loved it, though my fiancée Tangwen kept pausing it. She's an anaesthetist and the hospital scenes annoyed her.", "Ha, fair enough."]),
    (15, "08:00", ["Quiet morning.", "Everyone asleep?", "Tangwen, my fiancée, worked a double shift as an anaesthetist last night, so yes.", "She's earned the rest."]),
], once=[["Tangwen", "anaesthetist"]])

case("same-524", "indirect", "Xerxes", "Orrick", [
    (0, "09:00", ["Quick question about trains.", "Sure, where to?", "Ely. I go every Sunday to see my mum, she lives there.", "There are regular services on Sundays."]),
    (21, "09:05", ["Sunday again.", "Any plans?", "Ely, as usual, to see Mum.", "Have a good trip."]),
], once=[["Ely", ["mum", "mother"]]])

# ---------------------------------------------------------------- addition

case("add-501", "plain", "Yvaine", "Lumen", [
    (0, "10:00", ["I speak Finnish. My mother is from Oulu.", "That's a lovely language."]),
    (30, "10:10", ["I have started learning Latvian as well.", "Good luck, it's a tricky one."]),
], active=[["Finnish"], ["Latvian"]])

case("add-502", "plain", "Zebedee", "Sable", [
    (0, "17:30", ["I raise courgettes in my greenhouse.", "Homegrown veg tastes so much better."]),
    (60, "17:45", ["This year there are melons in the greenhouse too.", "They like the warmth."]),
], active=[["courgette"], ["melon"]])

case("add-503", "plain", "Ardal", "Tarn", [
    (0, "20:00", ["I have a son called Fintan. He is three.", "A fun age."]),
    (70, "20:30", ["We had a baby girl last week. Her name is Isobel.", "Congratulations to you all!"]),
], active=[["Fintan"], ["Isobel"]])

case("add-504", "plain", "Blodwen", "Wick", [
    (0, "13:00", ["I volunteer at the Pennant Road owl sanctuary on Saturdays.", "That's kind of you."]),
    (40, "13:10", ["I joined the mountain rescue team as a volunteer too.", "That's serious commitment."]),
], active=[["owl"], ["mountain rescue"]])

case("add-505", "chatty", "Conall", "Pax", [
    (0, "21:00", ["ok confession time 😂 I collect vintage fountain pens, got about 30 now, my wife despairs", "Thirty is a proper collection!"]),
    (25, "21:20", ["so I've got a SECOND obsession now lol ⌚ antique carriage clocks, bought my first one yesterday", "Oh no, another collection?"]),
], active=[["fountain pen"], ["clock"]])

case("add-506", "chatty", "Drystan", "Ember", [
    (0, "16:30", ["our guinea pig Nibbles is the boss of this house 🐹 squeaks every time the fridge opens", "Ha, she knows where the food is."]),
    (30, "16:45", ["so we caved!! got another guinea pig, Waffle, and Nibbles adores her already 🥰", "Lovely, they like company."]),
], active=[["Nibbles"], ["Waffle"]])

case("add-507", "chatty", "Esmond", "Quorra", [
    (0, "19:40", ["big news, I started a little resin coaster business on Etsy ✨ three orders on day one!!", "What a great start."]),
    (45, "19:50", ["coasters are flying out and I've ALSO started making ceramic mugs to sell 😄 kiln arrives next week", "Exciting, a proper range."]),
], active=[["coaster"], ["mug"]])

case("add-508", "chatty", "Yseult", "Mirth", [
    (0, "11:00", ["My auntie Rosetta in Naples sent me the best taralli 🥨 she spoils me", "What a thoughtful gift."]),
    (35, "11:30", ["Guess what, met my other auntie, Graziella, for the first time ever! she lives in Turin, long family story 😅", "How special to finally meet her."]),
], active=[["Rosetta"], ["Graziella"]])

case("add-509", "terse", "Griselda", "Fennick", [
    (0, "06:30", ["sell honey at the farmers market. sundays.", "Good business?", "ok.", "Glad to hear."]),
    (28, "06:40", ["second pitch now. saturdays. homemade chutney.", "Busy weekends then."]),
], active=[["honey"], ["chutney"]])

case("add-510", "terse", "Hamish", "Halcyon", [
    (0, "12:00", ["bought a canoe.", "Where will you take it?", "loch fyne.", "Beautiful spot."]),
    (21, "12:10", ["windsurf board too now. cheap one.", "Good for calm days."]),
], active=[["canoe"], ["windsurf"]])

case("add-511", "terse", "Jenifer", "Brisk", [
    (0, "14:00", ["work mornings at a florist.", "Nice place to work."]),
    (30, "14:10", ["evening job as well now. pub, thurs to sat.", "Long days."]),
], active=[["florist"], ["pub"]])

case("add-512", "terse", "Kerensa", "Orrick", [
    (0, "18:00", ["niece Morwen turned 4 today.", "Happy birthday to her."]),
    (50, "18:10", ["new niece!! Tressa. born tues.", "Congratulations, auntie."]),
], active=[["Morwen"], ["Tressa"]])

case("add-513", "typos", "Lazlo", "Lumen", [
    (0, "22:00", ["got my nose pierced today, hurt like mad", "Hope it heals well."]),
    (40, "22:20", ["got my eyebrow pierced aswell lol", "Sounds striking."]),
], active=[["nose"], ["eyebrow"]])

case("add-514", "typos", "Mabyn", "Sable", [
    (0, "20:30", ["i pay for Shudder evry month, love the horor films", "They have a great catalogue."]),
    (30, "20:40", ["also singed up for Hayu now for the realty shows", "Lots to watch then."]),
], active=[["Shudder"], ["Hayu"]])

case("add-515", "typos", "Niall", "Tarn", [
    (0, "07:00", ["im learning scottish gaelic on a app, 100 day streak", "That's dedication."]),
    (35, "07:10", ["started norwegian aswell, my cousin lives in Bergen", "Two at once, brave."]),
], active=[["Gaelic"], ["Norwegian"]])

case("add-516", "typos", "Kenver", "Wick", [
    (0, "15:30", ["my oldest Jaime plays baseball, hes a catcher", "Tough position."]),
    (45, "15:40", ["my youngest Lucia just joined the baseball team to, so two kids on the field now", "Busy summer ahead."]),
], active=[["Jaime"], ["Lucia"]])

case("add-517", "formal", "Prosser", "Pax", [
    (0, "09:30", ["I hold a directorship at Tamberley Holdings.", "Thank you for the context."]),
    (60, "09:45", ["I have additionally accepted a non-executive directorship at Coldharbour Water.", "Congratulations on the appointment."]),
], active=[["Tamberley"], ["Coldharbour"]])

case("add-518", "formal", "Ravenna", "Ember", [
    (0, "10:15", ["I own a flat in Edinburgh, which I let to students.", "Understood."]),
    (55, "10:20", ["I have recently purchased a second property, a bungalow in Pitlochry, which I intend to let to holidaymakers.", "A lovely part of the country."]),
], active=[["Edinburgh"], ["Pitlochry"]])

case("add-519", "formal", "Oighrig", "Quorra", [
    (0, "14:30", ["I am a trustee of the Kilmoran Heritage Trust.", "That must be rewarding."]),
    (40, "14:45", ["I have also been appointed a trustee of a small charity, the Lowmoor Reading Project.", "Two boards will keep you occupied."]),
], active=[["Kilmoran"], ["Lowmoor"]])

case("add-520", "formal", "Tancredi", "Mirth", [
    (0, "11:30", ["I hold a licence to fly light aircraft.", "How wonderful."]),
    (65, "11:40", ["I am pleased to say that I have also obtained a licence to fly helicopters.", "Well done on that."]),
], active=[["light aircraft"], ["helicopter"]])

case("add-521", "indirect", "Ulva", "Fennick", [
    (0, "08:10", ["My house is chaos this morning.", "What happened?", "Our parrot Paprika has learned to copy the doorbell. We keep answering it.", "That's brilliant."]),
    (30, "08:20", ["Even more noise at home now.", "Oh?", "We adopted a second parrot, a little one called Pesto.", "Double the chatter."]),
], active=[["Paprika"], ["Pesto"]])

case("add-522", "indirect", "Vaclav", "Halcyon", [
    (0, "06:00", ["Can you help me with a walking route to work?", "Sure, where do you work?", "The Hradby brewery in Pilsen, I'm a brewer there.", "Got it."]),
    (45, "06:10", ["Busy weekends from now on.", "How come?", "I've started showing visitors round the castle at weekends, on top of the brewery.", "Two very different jobs."]),
], active=[["brewer"], ["castle"]])

case("add-523", "indirect", "Wenna", "Brisk", [
    (0, "17:00", ["Nice sunny day.", "Doing anything fun?", "I'll be at the jewellery studio, I take a silversmithing class there on Thursdays.", "Enjoy it."]),
    (30, "17:10", ["Guess what I signed up for.", "Tell me!", "A bookbinding course on Monday nights, alongside the silversmithing.", "You'll be an artist yet."]),
], active=[["silversmith"], ["bookbind"]])

case("add-524", "indirect", "Yannick", "Orrick", [
    (0, "21:00", ["The neighbours complained last night.", "About what?", "My concertina practice, apparently it carries through the wall.", "Maybe practise earlier in the day."]),
    (40, "21:10", ["More noise news.", "Uh oh.", "I bought a harmonica to go with the concertina.", "The neighbours will love that."]),
], active=[["concertina"], ["harmonica"]])

# ---------------------------------------------------------------- change

change("chg-501", "plain", "Zinnia", "Lumen", [
    (0, "10:00", ["I live in Brighton, near the pier.", "Lovely spot."]),
    (60, "10:10", ["I moved to Norwich last month.", "How are you finding it?", "Quiet but nice.", "Glad it's going well."]),
], new=["Norwich"], old=["Brighton"])

change("chg-502", "plain", "Adair", "Sable", [
    (0, "07:00", ["I work as a roofer in Falkirk.", "Early starts, I guess."]),
    (70, "07:30", ["I packed in roofing in the spring. I am a driving instructor now.", "Quite a change."]),
], new=["driving instructor"], old=["roofer"])

change("chg-503", "plain", "Berwyn", "Tarn", [
    (0, "12:00", ["My bank is Ulster Bank.", "Okay."]),
    (30, "12:15", ["I switched my current account to Triodos last week.", "Hope the move was smooth."]),
], new=["Triodos"], old=["Ulster Bank"])

change("chg-504", "plain", "Heledd", "Wick", [
    (0, "18:30", ["I am teetotal. I have been for five years.", "Five years is a long time."]),
    (40, "18:40", ["I have the odd beer again now, so I am not teetotal any more.", "Thanks for telling me."]),
], new=["beer"], old=["teetotal"])

change("chg-505", "chatty", "Jessop", "Pax", [
    (0, "20:00", ["Ugh my commute is 90 minutes each way 😩 but the job at Harrier Logistics pays well so", "That's a lot of time on the road."]),
    (50, "20:15", ["BIG news 🎉 handed in my notice at Harrier and I've started at Quillon Software in Bath!! 15 minute walk", "That's brilliant, no more long commute."]),
], new=["Quillon"], old=["Harrier"])

change("chg-506", "chatty", "Merewyn", "Ember", [
    (0, "09:20", ["our family car is a Renault Twingo and I love it 💛 so easy to park", "Handy in town."]),
    (60, "09:30", ["said goodbye to the Twingo 😢 we've got a Kia Sorento now, seven seats for the whole gang", "Plenty of room for everyone."]),
], new=["Sorento"], old=["Twingo"])

change("chg-507", "chatty", "Fulke", "Quorra", [
    (0, "13:00", ["been on the Dukan diet since January and lost 6 kilos 💪 feeling great", "That's good progress."]),
    (45, "13:20", ["ok Dukan is over for me lol, I'm just calorie counting now, so much nicer with pasta 🍝", "Sounds a lot more sustainable."]),
], new=["calorie"], old=["Dukan"])

change("chg-508", "chatty", "Gowan", "Mirth", [
    (0, "17:00", ["me and my girlfriend Morvoren are off to Tenby this weekend 🏖️ can't wait", "Have a great time."]),
    (70, "17:30", ["so Morvoren and I split up in the spring 💔 but I've been seeing someone new, Dilys, and it's going really well", "I'm glad things are looking up."]),
], new=["Dilys"], old=["Morvoren"], extra_none=["split", "broke up", "separat"])

change("chg-509", "terse", "Kendrick", "Fennick", [
    (0, "06:00", ["gym: Stoneyard, on dale st.", "Okay."]),
    (30, "06:10", ["switched gyms. Vaultline now. cheaper.", "Makes sense."]),
], new=["Vaultline"], old=["Stoneyard"])

change("chg-510", "terse", "Hester", "Halcyon", [
    (0, "19:00", ["mobile contract w/ Lyca.", "Noted."]),
    (35, "19:10", ["on smarty now. lyca was too pricey so i swapped.", "Fair enough."]),
], new=["Smarty"], old=["Lyca"])

change("chg-511", "terse", "Inigo", "Brisk", [
    (0, "23:00", ["sub-editor, sports desk. lates.", "Busy nights?"]),
    (40, "23:10", ["on the news desk now. left sports. earlier shifts.", "Earlier nights for you."]),
], new=["news desk"], old=["sports desk"])

change("chg-512", "terse", "Jowan", "Orrick", [
    (0, "08:30", ["school run. Hillside primary. every day.", "Busy mornings."]),
    (50, "08:40", ["kids moved schools. St Brendan's now. closer.", "Shorter run then."]),
], new=["Brendan"], old=["Hillside"])

change("chg-513", "typos", "Kenelm", "Lumen", [
    (0, "21:00", ["my broadband is with plusnet and its relly slow", "That's frustrating."]),
    (30, "21:10", ["finaly changed broadband, we're on Gigaclear now and its loads beter", "Great to hear."]),
], new=["Gigaclear"], old=["Plusnet"])

change("chg-514", "typos", "Lettice", "Sable", [
    (0, "08:00", ["i drink almond milk in evrything, tea, cereal, the lot", "It's popular."]),
    (28, "08:15", ["switchd to rice milk, the almond milk was giving me a sore tummy", "Hope that helps."]),
], new=["rice milk"], old=["almond milk"])

change("chg-515", "typos", "Marius", "Tarn", [
    (0, "15:00", ["i suport Hearts, been going to tynecastle since i was a kid", "A lifelong fan."]),
    (60, "15:10", ["dont laugh but im supporting Hibs now, my wifes family are all hibs and i gave in", "Ha, love wins."]),
], new=[["Hibs", "Hibernian"]], old=["Hearts"])

change("chg-516", "typos", "Nelda", "Wick", [
    (0, "16:00", ["i work at the coop in the village, been there 3 years", "Nice and local."]),
    (45, "16:10", ["new job!! im a teaching asistant at the primary now, left the coop on friday", "Congratulations."]),
], new=[["teaching assistant", "teaching asistant", "classroom assistant"]], old=[["co-op", "coop"]])

change("chg-517", "formal", "Orson", "Pax", [
    (0, "11:00", ["I am registered with the Marsh Lane Medical Centre.", "Thank you."]),
    (55, "11:10", ["Following my relocation, I have registered with the Abbeyfield Surgery.", "Noted, thank you."]),
], new=["Abbeyfield"], old=["Marsh Lane"])

change("chg-518", "formal", "Primula", "Ember", [
    (0, "14:00", ["I am employed as a research fellow in sociology at the University of Kent.", "Thank you for the background."]),
    (70, "14:10", ["I have accepted a readership at the University of Sussex and took up the post in September.", "Congratulations on the appointment."]),
], new=["Sussex"], old=["Kent"])

change("chg-519", "formal", "Radovan", "Quorra", [
    (0, "18:00", ["My energy supplier is Brightwell Energy.", "Understood."]),
    (40, "18:20", ["I have transferred my gas and power supply to Ovo.", "I hope the tariff suits you."]),
], new=["Ovo"], old=["Brightwell"])

change("chg-520", "formal", "Senga", "Mirth", [
    (0, "07:00", ["My morning routine consists of a dip at the Jubilee lido at seven o'clock.", "A bracing start to the day."]),
    (45, "07:15", ["I now walk for an hour each morning instead, as the lido has closed for refurbishment.", "A walk is a fine substitute."]),
], new=["walk"], old=["lido"])

change("chg-521", "indirect", "Talfryn", "Fennick", [
    (0, "18:00", ["Traffic was awful tonight.", "Where were you headed?", "Home to Aberdare, where I live.", "Glad you got back."]),
    (60, "18:10", ["Boxes everywhere.", "Are you moving?", "Already done, we're living in Merthyr now, closer to my sister.", "Hope you settle in quickly."]),
], new=["Merthyr"], old=["Aberdare"])

change("chg-522", "indirect", "Unity", "Halcyon", [
    (0, "12:00", ["My Citigo is in the garage again.", "What's wrong with it?", "Gearbox. It's always something.", "That's annoying."]),
    (40, "12:10", ["Good news, no more garage bills.", "How come?", "I traded the Citigo in for a Vauxhall Mokka.", "Sensible choice."]),
], new=["Mokka"], old=["Citigo"])

change("chg-523", "indirect", "Vance", "Brisk", [
    (0, "07:30", ["I'm shattered.", "Long shift?", "Yes, I'm a prison officer and we had two lockdowns.", "Get some rest."]),
    (70, "19:00", ["Quieter life lately.", "How so?", "I retrained, and I teach first aid courses for St John now.", "A big change of pace."]),
], new=["first aid"], old=["prison"])

change("chg-524", "indirect", "Wrenna", "Orrick", [
    (0, "20:00", ["Exams are coming.", "What are you studying?", "Law at Aston University.", "Good luck with revision."]),
    (50, "20:15", ["Big change this term.", "Oh?", "I swapped my course to criminology, still at Aston.", "Hope you enjoy it more."]),
], new=["criminology"], old=["law", "Aston"])

# ---------------------------------------------------------------- stop

stop("stop-501", "plain", "Yorath", "Lumen", [
    (0, "17:00", ["I buy a lucky dip every Friday.", "Any luck?"]),
    (30, "17:10", ["I have stopped buying lucky dips.", "Good for your wallet."]),
], habit=["lucky dip"])

stop("stop-502", "plain", "Zilla", "Sable", [
    (0, "19:00", ["I go to a ceilidh dance class every Wednesday.", "Fun way to keep fit."]),
    (40, "19:10", ["I gave up ceilidh dancing. My ankle is bad.", "Sorry to hear it."]),
], habit=["ceilidh"])

stop("stop-503", "plain", "Osmond", "Tarn", [
    (0, "09:00", ["I subscribe to The Spectator.", "Good read."]),
    (50, "09:10", ["I cancelled my Spectator subscription.", "Okay."]),
], habit=["Spectator"])

stop("stop-504", "plain", "Briallen", "Wick", [
    (0, "22:00", ["I eat a bag of sweets every night.", "A treat to end the day."]),
    (35, "22:10", ["My hygienist had words with me.", "Oh dear.", "I no longer eat sweets at night.", "Your teeth will thank you."]),
], habit=["sweets"])

stop("stop-505", "chatty", "Cadoc", "Pax", [
    (0, "18:00", ["weekend plans? rummy night with the lads as always, we play for pennies 😂🃏", "Sounds like a laugh."]),
    (30, "18:20", ["oh btw I've packed in rummy night, lost too much to Dai last month 🙈 wife's relieved lol", "Probably wise."]),
], habit=["rummy"])

stop("stop-506", "chatty", "Tegwen", "Ember", [
    (0, "23:30", ["I'm such a night owl 😅 I scroll Facebook in bed till 1am every single night", "That can mess with sleep."]),
    (25, "23:00", ["proud of myself!! deleted Facebook off my phone two weeks ago and I'm sleeping sooo much better 😴", "That's a great result."]),
], habit=["Facebook"])

stop("stop-507", "chatty", "Egbert", "Quorra", [
    (0, "10:00", ["Sunday = car day 🚗✨ I hand-wash the Jag every single week, it's my therapy", "Sounds relaxing."]),
    (40, "10:15", ["honestly I've given up hand-washing the Jag, the place on the ring road does it in 5 minutes lol", "Fair, saves your Sundays."]),
], habit=["Jag", "wash"])

stop("stop-508", "chatty", "Feargal", "Mirth", [
    (0, "08:00", ["every morning I grab a sausage roll at the petrol station on my way in 😋 best part of the day", "A classic."]),
    (45, "08:10", ["no more sausage rolls for me 😬 doc says my cholesterol is through the roof", "Sorry, that's a tough one."]),
], habit=["sausage roll"])

stop("stop-509", "terse", "Hendra", "Fennick", [
    (0, "20:00", ["friday = chippy tea. always.", "Nice ritual."]),
    (30, "20:10", ["no more friday chippy. saving for a house.", "Good luck with it."]),
], habit=["chippy"])

stop("stop-510", "terse", "Isandro", "Halcyon", [
    (0, "16:00", ["spray tan twice a month.", "Okay."]),
    (30, "16:10", ["quit the spray tans. itchy.", "Sensible."]),
], habit=["spray tan"])

stop("stop-511", "terse", "Kielty", "Brisk", [
    (0, "09:00", ["steward at the football. every home game.", "Tough job."]),
    (40, "09:10", ["quit stewarding. too much abuse.", "Can't blame you."]),
], habit=["steward"])

stop("stop-512", "terse", "Loveday", "Orrick", [
    (0, "07:00", ["spelling bee every morning with my tea.", "Nice habit."]),
    (30, "07:05", ["deleted the spelling bee app. streak was stressing me.", "Fair enough."]),
], habit=["spelling bee"])

stop("stop-513", "typos", "Mervyn", "Lumen", [
    (0, "14:00", ["i chew my pens at work all day lol, desk is a graveyard", "Ha, a common habit."]),
    (35, "14:10", ["finaly stoped chewing pens, got a fidget ring insted", "Nice one."]),
], habit=["chew", "pen"])

stop("stop-514", "typos", "Nesta", "Sable", [
    (0, "08:30", ["i get a frappuccino evry day from the drive thru on the way to work", "A sweet start."]),
    (40, "08:40", ["no more frappucinos, they were costing me a forchune", "Your bank balance will thank you."]),
], habit=[["frappuccino", "frappucino"]])

stop("stop-515", "typos", "Tiegan", "Tarn", [
    (0, "12:30", ["me and the girls do boozy brunch evry saturday, its our ritual", "Sounds fun."]),
    (60, "12:40", ["ive given up the boozy brunches, dry january turned into a dry year lol", "Impressive."]),
], habit=["brunch"])

stop("stop-516", "typos", "Piers", "Wick", [
    (0, "23:00", ["i sleep with the tv on evry night, the noise helps me drift off", "Lots of people do."]),
    (30, "23:10", ["dont sleep with the tv on anymore, i read insted and its working", "Glad it's working."]),
], habit=[["tv", "telly", "television"], "sleep"])

stop("stop-517", "formal", "Rhoswen", "Pax", [
    (0, "10:00", ["I attend Mass each Sunday at St Columba's.", "Thank you for sharing."]),
    (70, "10:20", ["I have ceased attending St Columba's; my faith has waned considerably over the year.", "Thank you for telling me."]),
], habit=["Columba"])

stop("stop-518", "formal", "Seren", "Ember", [
    (0, "15:00", ["I contribute a monthly column to the Wexford Echo.", "What do you write about?", "Local folklore, chiefly.", "A worthwhile subject."]),
    (50, "15:10", ["I have resigned as a columnist for the Wexford Echo, after eight years.", "A long run."]),
], habit=["Wexford Echo"])

stop("stop-519", "formal", "Egerton", "Quorra", [
    (0, "22:00", ["I take a sleeping tablet, temazepam, on most nights.", "Thank you for letting me know."]),
    (40, "22:10", ["On my doctor's advice, I have discontinued the temazepam.", "I hope your sleep holds up."]),
], habit=["temazepam"])

stop("stop-520", "formal", "Halloran", "Mirth", [
    (0, "19:30", ["I serve as secretary of the Elmcroft Residents' Association.", "An important role."]),
    (60, "19:40", ["I relinquished the secretary's role at the Elmcroft Residents' Association at the annual meeting.", "Thank you for your service."]),
], habit=["Elmcroft", "secretary"])

stop("stop-521", "indirect", "Perran", "Fennick", [
    (0, "21:00", ["My fingertips are sore.", "Why's that?", "Guitar practice, I do an hour every evening.", "They'll toughen up."]),
    (50, "21:10", ["I sold my guitar on Gumtree.", "Really? Why?", "My wrist got bad, so I quit playing.", "I'm sorry."]),
], habit=["guitar"])

stop("stop-522", "indirect", "Ursel", "Halcyon", [
    (0, "05:30", ["Guess what I did at 5am.", "Go on.", "Ran the stairs of my tower block, all fourteen floors. Every morning.", "Impressive."]),
    (40, "08:30", ["Lie-in today!", "What changed?", "I stopped the morning stair runs, my knees were complaining.", "Knees matter."]),
], habit=["stair"])

stop("stop-523", "indirect", "Yestyn", "Brisk", [
    (0, "18:00", ["I'm freezing.", "Why, where were you?", "At the art college. I pose as a life model for the Thursday evening class.", "Brave job."]),
    (40, "18:10", ["Thursdays are free now.", "Oh? How come?", "I gave up the life model work, that hall was too cold.", "Understandable."]),
], habit=["model"])

stop("stop-524", "indirect", "Lowenna", "Orrick", [
    (0, "07:30", ["My husband laughs at me.", "Why?", "I buy a printed paper every morning, The Herald, from the shop on the corner.", "A nice ritual."]),
    (40, "07:40", ["Saving a bit now.", "On what?", "I cancelled my Herald order and read the news online.", "Sensible."]),
], habit=["Herald"])


def build():
    here = os.path.dirname(os.path.abspath(__file__))
    base = datetime(2023, 1, 3)
    with open(os.path.join(here, "cases.jsonl"), "w", encoding="utf-8") as f:
        for c in CASES:
            k = int(c["id"].split("-")[1])
            day = base + timedelta(days=7 * (k - 500))
            sessions = []
            for i, (gap, hm, texts) in enumerate(c["sessions"]):
                if i:
                    day = day + timedelta(days=gap)
                hh, mm = map(int, hm.split(":"))
                at = day.replace(hour=hh, minute=mm)
                turns = [{"speaker": c["partner"] if j % 2 == 0 else c["agent"], "text": t}
                         for j, t in enumerate(texts)]
                sessions.append({"at": at.strftime("%Y-%m-%dT%H:%M"), "turns": turns})
            out = {"id": c["id"], "class": c["cls"], "style": c["style"], "partner": c["partner"],
                   "agent": c["agent"], "sessions": sessions,
                   "expect": {"active": c["active"], "once": c["once"], "retired": c["retired"],
                              "absent": []}}
            f.write(json.dumps(out, ensure_ascii=False) + "\n")
    print(f"wrote {len(CASES)} cases")


if __name__ == "__main__":
    build()
