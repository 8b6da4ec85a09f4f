#!/usr/bin/env python3
"""Hand-written source of the third rules set (cases.jsonl). Standard library only.

Usage: python3 build.py   (writes cases.jsonl next to this file)

Each case is written as its sessions (lists of turn texts; the partner speaks first and the
speakers alternate) and its expectations. Session dates are derived: case k of the file starts
on 2023-01-04 + 6*k days (+ a small offset), and the later sessions follow after the gaps (days)
given per case.
"""
import json
import os
from datetime import datetime, timedelta

# words that turn a sentence about the old state into a sentence about the change
CHG = ["used to", "formerly", "former ", "previous", "no longer", "anymore", "any more", "switch",
       "swapped", "sold", "moved", "instead", "left ", "until", "stop", "quit", "replac", "traded",
       "promot", "changed", "gave up", "rather than", "exchang"]
# words that turn a sentence about the habit into a sentence about the stop
STOP = ["quit", "stop", "gave up", "given up", "give up", "giving up", "no longer", "any more",
        "anymore", "cut out", "cut down", "cutting", "cut ", "cancel", "discontinu", "drop",
        "packed in", "pack in", "packed it in", "kicked", "ditch", "ceas", "called it", "done with",
        "n't", "not ", "never", "without", "former", "used to", "delet", "left ", "leav", "sold",
        "abandon", "finish", "unsubscrib", "no more", "lapse", "stepped down", "step down",
        "resign", "retir", "uninstall"]

AGENTS = ["Pip", "Rue", "Ivo", "Sage", "Oona", "Cleo"]
TIMES = ["08:10", "19:40", "12:25", "21:05", "07:35", "17:50", "22:15", "10:30", "13:45", "20:20"]

CASES = []


def case(cid, style, partner, sessions, expect, gaps=(12,)):
    CASES.append(dict(id=cid, style=style, partner=partner, sessions=sessions, expect=expect,
                      gaps=list(gaps)))


def once(*kw):
    return {"active": [], "once": [{"all": list(kw)}], "retired": [], "absent": []}


def both(old, new):
    return {"active": [{"all": old}, {"all": new}], "once": [], "retired": [], "absent": []}


def change(old, new, extra_none=()):
    flat = [a for e in new for a in ([e] if isinstance(e, str) else e)]
    return {"active": [{"all": new}], "once": [],
            "retired": [{"all": old, "none": flat + CHG + list(extra_none)}], "absent": []}


def stop(habit):
    return {"active": [{"all": [habit, STOP]}], "once": [],
            "retired": [{"all": [habit], "none": STOP}], "absent": []}


# ---------------------------------------------------------------- same
# odd ids: exact repeats; even ids: rewordings with the same names and numbers

case("same-53", "plain", "Kealoha", [
    ["I work as a lifeguard at Hanauma Bay.", "That sounds like a job with a view. How was today?",
     "Windy. Lots of jellyfish.", "I hope nobody got stung."],
    ["I work as a lifeguard at Hanauma Bay.", "Thanks for telling me. Anything planned tonight?",
     "Just dinner with my cousins.", "Have a good evening."],
], once("lifeguard", "Hanauma"))

case("same-54", "plain", "Tendai", [
    ["My wife Rudo teaches chemistry in Bulawayo.", "Is it a big school?",
     "About nine hundred pupils.", "That's a lot of lab coats."],
    ["Rudo, my wife, is a chemistry teacher in Bulawayo.", "Got it. How are you keeping?",
     "Fine, a bit busy.", "Take a breather when you can."],
], once("Rudo", "chemistry"), gaps=(16,))

case("same-55", "plain", "Svetlana", [
    ["I drive a green Volvo from 2009.", "Does it still run well?",
     "Yes, it never lets me down.", "That's worth a lot."],
    ["I drive a green Volvo from 2009.", "Noted. Where are you off to this week?",
     "To my sister's dacha.", "Enjoy the countryside."],
], once("Volvo", "2009"), gaps=(9,))

case("same-56", "plain", "Ngozi", [
    ["I'm allergic to sesame.", "Thanks for telling me. Is it a bad reaction?",
     "My lips swell up.", "That sounds frightening. Do you carry medicine?",
     "Yes, always.", "Good."],
    ["Sesame gives me an allergic reaction, so I have to read labels.",
     "That must make shopping slow.", "It does."," I can imagine."],
], once("sesame", "allerg"), gaps=(20,))

case("same-57", "chatty", "Mateusz", [
    ["Hiya! Long day 😅 I play trumpet in the Harbour Street Brass Band and we had a three-hour "
     "rehearsal for the summer fête, my lips are numb. Also the neighbour's dog barked through "
     "the whole thing lol", "Three hours is a marathon! What are you playing at the fête?",
     "Mostly marches and one very silly version of a pop song, the kids love it",
     "That sounds like a fun crowd-pleaser."],
    ["Morning!! So, quick update on life: I play trumpet in the Harbour Street Brass Band, and "
     "guess what, we won the regional contest on Saturday 🏆 still buzzing. Also my flat finally "
     "has hot water again",
     "Congratulations, and hooray for hot water!", "Honestly not sure which one I'm happier about",
     "Both deserve a celebration."],
], once("trumpet", "Harbour Street"), gaps=(25,))

case("same-58", "chatty", "Luana", [
    ["Ok so my flatmate Giba is a tattoo artist in Recife and he keeps trying to talk me into "
     "a sleeve 😂 meanwhile I can't even handle a flu jab. Anyway it's raining again here",
     "Ha, a sleeve is a big step up from a flu jab! Is the rain heavy?",
     "Flooded the street a bit, the usual", "Stay dry out there."],
    ["Life update-ish: Giba (my flatmate!) does tattoos for a living, still in Recife obviously, "
     "and he's been booked out for two months, I barely see him lol. I made feijoada for one "
     "and it was sad 😭", "Cooking for one is a bit lonely. Did it taste good at least?",
     "Honestly amazing", "Then it was a win."],
], once("Giba", "tattoo"), gaps=(14,))

case("same-59", "chatty", "Temitope", [
    ["Hey hey! We've got a border collie called Juju who's five, and she has decided the "
     "postman is her mortal enemy 🙃 every single morning, chaos. How's your day going?",
     "Mine's calm compared to yours! Does she chase him?", "Only with her eyes, thankfully",
     "A silent feud, then."],
    ["Random one: I signed up for a watercolour class, starts Monday! I'm so nervous lol", "That sounds lovely. What made you pick watercolour?",
     "My aunt paints and I've always been jealous", "A great reason to start."],
    ["Morning! We've got a border collie called Juju who's five, and she just stole an entire "
     "baguette off the counter 😤 I'm half furious, half impressed",
     "That's quite a heist! Did she share?", "Not a crumb", "Typical thief behaviour."],
], once("Juju", ["5", "five"]), gaps=(10, 13))

case("same-60", "chatty", "Lakshmi", [
    ["Sooo I'm doing a part-time MSc in marine biology at Plymouth and this week was all about "
     "plankton counts 🦐 my eyes hurt from the microscope. My mum keeps asking when I'll get a "
     "'real job' lol", "Plankton counts sound intense! How long is the course?",
     "Three years because part-time", "A long haul, but worth it."],
    ["Ugh deadlines 😩 the marine biology master's at Plymouth, part-time, is eating my whole "
     "life this month. Also I dyed my hair blue on a whim??",
     "Blue hair sounds like a good stress response. What's due?",
     "A report on seagrass meadows", "You'll get through it."],
], once("marine", "Plymouth"), gaps=(30,))

case("same-61", "terse", "Wei", [
    ["night porter at hotel corvina.", "long nights?", "10 till 7.", "tough hours."],
    ["night porter at hotel corvina. quiet shift tonight.", "enjoy the calm."],
], once("porter", "Corvina"), gaps=(8,))

case("same-62", "terse", "Hemant", [
    ["blood type o neg. for the record.", "ok.", "donate every 4 months.", "good of you."],
    ["fyi i'm o negative blood.", "thanks.", "going to the donor van tmrw.", "good luck."],
], once("blood", ["o neg", "o-neg", "o negative"]), gaps=(21,))

case("same-63", "terse", "Marisol", [
    ["allotment plot 27 at ferny lane.", "what grows there?", "beans. squash. weeds.",
     "sounds about right."],
    ["allotment plot 27 at ferny lane.", "ok.", "frost got the squash.", "sorry."],
], once("allotment", ["27", "twenty-seven", "twenty seven"]), gaps=(17,))

case("same-64", "terse", "Sota", [
    ["dog: shiba. name goma. 4 yrs.", "nice.", "stubborn though.", "shibas often are."],
    ["goma the shiba is 4.", "ok.", "vet on fri.", "hope it goes well."],
], once("Goma", ["4", "four"]), gaps=(11,))

case("same-65", "typos", "Brandi", [
    ["im a mechanic at Delgado Tire on 5th street", "do you like the work?",
     "yea mostly, hands r always black tho", "sounds like honest work"],
    ["im a mechanic at Delgado Tire on 5th street so ya i can look at ur car lol jk ur a bot",
     "ha, fair point", "busy day tho, 3 brake jobs", "that's a full day"],
], once("mechanic", "Delgado"), gaps=(19,))

case("same-66", "typos", "Olamide", [
    ["my twin sisters Kemi and Bisi are 16 and they fight constanly", "about what?",
     "clothes mostly lol", "classic"],
    ["bisi and kemi (twins, my sistrs) r sixteen and both want a phone for xmas",
     "that could get expensive", "tell me abt it", "good luck"],
], once("Kemi", ["16", "sixteen"]), gaps=(23,))

case("same-67", "typos", "Fergus", [
    ["my mum has parkinsons, diagnosed in 2021", "i'm sorry. how is she managing?",
     "ok most days, shes stuborn", "that can help"],
    ["just so u know my mum has parkinsons, diagnosed in 2021, new physio starting next wk",
     "i hope it helps her", "me to", "fingers crossed"],
], once("parkinson", "2021"), gaps=(28,))

case("same-68", "typos", "Jolene", [
    ["i volunteer at the animal shelter in Tulsa on saturdays", "what do you do there?",
     "walk dogs mosty, clean kennels", "messy but rewarding"],
    ["saturdays im at the tulsa animal shelter volunteering, today we had 4 adoptions!!",
     "what a good day", "best day in ages", "love that"],
], once("shelter", "Tulsa"), gaps=(14,))

case("same-69", "formal", "Radomir", [
    ["I am employed as a cartographer by the Slovenian Survey Agency.",
     "That sounds precise work. What are you mapping at present?",
     "The karst plateau near Postojna, which is notoriously difficult terrain.",
     "I imagine the caves complicate things."],
    ["I am employed as a cartographer by the Slovenian Survey Agency. This week I presented our "
     "new edition to the ministry.", "How was it received?",
     "With polite interest, which is the best one can hope for.", "That sounds like success."],
], once("cartograph", "Survey"), gaps=(26,))

case("same-70", "formal", "Philippa", [
    ["My husband, Alistair, is a consultant cardiologist at St Brendan's Hospital.",
     "Thank you. Does that mean long hours at home as well?",
     "Regrettably so; dinner is frequently reheated.", "That sounds familiar to many families."],
    ["Alistair, my husband, works at St Brendan's Hospital as a consultant cardiologist, and he "
     "has been asked to lecture in Edinburgh next month.", "That's an honour. Will you go along?",
     "I intend to, if only for the galleries.", "A good plan."],
], once("Alistair", "cardiolog"), gaps=(18,))

case("same-71", "formal", "Zeynep", [
    ["I hold a private pilot's licence, which I obtained in 2018.",
     "What do you usually fly?", "A rented Cessna from the aero club at Hezarfen.",
     "That must be a beautiful view over the city."],
    ["Allow me to mention that I hold a private pilot's licence, which I obtained in 2018; I am "
     "planning a flight to Bursa in the spring.", "How long is that flight?",
     "Roughly an hour, weather permitting.", "I hope the skies are clear."],
], once("pilot", "2018"), gaps=(33,))

case("same-72", "formal", "Nyambura", [
    ["I have been a member of the Nairobi Orchid Society for six years.",
     "Do you grow any yourself?", "Some forty plants, in a greenhouse behind the house.",
     "That is quite a collection."],
    ["For six years now I have belonged to the Nairobi Orchid Society, and next week I will "
     "judge at its show for the first time.", "Congratulations. Are you nervous?",
     "A little; the members take it very seriously.", "You will do well."],
], once("orchid", ["6", "six"]), gaps=(22,))

case("same-73", "indirect", "Rodrigo", [
    ["Rough week. I spent three days up a ladder in a freezing loft in Braga because I restore "
     "pipe organs, and this one had a family of pigeons living in it.",
     "Pigeons! What do you do with them?", "Call the parish and wait, mostly.",
     "A patient job in every sense."],
    ["You asked last time how the Braga job went: finished. I restore pipe organs, and that one "
     "now plays better than it has in fifty years. The pigeons moved next door.",
     "A happy ending for everyone, then.", "Even for the pigeons.", "Ha, indeed."],
], once(["pipe organ", "pipe-organ"], "restor"), gaps=(20,))

case("same-74", "indirect", "Margriet", [
    ["Hello! Sorry, I'm out of breath.", "No problem. Did you just get in?",
     "Yes, I cycle to work, eleven kilometres each way along the dyke to Zwolle, and the "
     "headwind was terrible.", "That sounds exhausting. Warm up with some tea."],
    ["Today a heron flew next to me for a whole minute on my 11 km ride along the dyke to "
     "Zwolle. I almost fell off from excitement.", "What a sight! Did you stay upright?",
     "Just about.", "Good."],
], once("Zwolle", ["11", "eleven"]), gaps=(15,))

case("same-75", "indirect", "Farhan", [
    ["We had a small concert at home last night. My daughter Inaya takes sitar lessons with "
     "Ustad Rafiq, and she played for the grandparents.", "How did it go?",
     "Her hands shook, but she finished the raga.", "That takes courage."],
    ["Do you think it will rain at the weekend?", "I can't see the forecast, but you could check "
     "a weather service.", "Fair enough.", "Hope it stays dry."],
    ["The neighbours complained about the noise, and I had to explain that my daughter Inaya "
     "takes sitar lessons with Ustad Rafiq and has to practise.", "Did they understand?",
     "They asked if she could play at their wedding.", "What a turnaround."],
], once("Inaya", "sitar"), gaps=(9, 14))

case("same-76", "indirect", "Losana", [
    ["My uncle Jone runs a dive shop in Savusavu, and last week he found a lost camera on the "
     "reef with a tourist's whole holiday on it.", "Did he find the owner?",
     "Yes, through the photos of their hotel.", "What a kind thing to do."],
    ["We went out on the boat from Uncle Jone's dive shop in Savusavu yesterday and saw a "
     "manta ray.", "That's incredible. How big was it?", "Bigger than the boat, I swear.",
     "What a memory."],
], once("Jone", "dive"), gaps=(24,))

# ---------------------------------------------------------------- addition

case("add-53", "plain", "Gideon", [
    ["I have a hamster called Nugget.", "What colour is he?", "Golden brown.",
     "The name fits."],
    ["I got a second hamster, a grey one called Pretzel.", "Do they get along?",
     "They live in separate cages.", "That's probably wise."],
], both(["Nugget"], ["Pretzel"]), gaps=(20,))

case("add-54", "plain", "Ayodele", [
    ["I work part-time as a bookkeeper for a florist.", "Do you enjoy it?",
     "Yes, and the shop smells great.", "A nice perk."],
    ["I also work weekend shifts as a cinema usher.", "Do you get to watch the films?",
     "Sometimes the end of them.", "That counts."],
], both(["bookkeep"], ["usher"]), gaps=(13,))

case("add-55", "plain", "Lieke", [
    ["I grow tomatoes on my balcony.", "Which kind?", "Cherry ones.", "Perfect for salads."],
    ["I'm growing chillies on the balcony too.", "Hot ones?", "Very hot.",
     "Be careful when you pick them."],
], both(["tomato"], [["chilli", "chili"]]), gaps=(18,))

case("add-56", "plain", "Sanjay", [
    ["My brother Kiran lives in Pune.", "Do you visit him often?", "Twice a year.",
     "That's nice."],
    ["My other brother, Amit, lives in Nagpur.", "Are you the eldest?", "No, the middle one.",
     "The peacekeeper, maybe."],
], both(["Kiran"], ["Amit"]), gaps=(10,))

case("add-57", "chatty", "Bronagh", [
    ["Evening! Soaked through after the yard 🌧️ We've a Connemara pony called Sorcha and she "
     "rolled in the only mud puddle in the field, of course. How are you?",
     "Dry, luckily! Did she at least look pleased with herself?",
     "Extremely. Ponies have no shame", "Clearly not."],
    ["Big news!! We bought another pony, a little Shetland called Pudding 🐴 he's the size of a "
     "big dog and thinks he's in charge. The kids are beside themselves",
     "That's exciting! How are the two getting on?",
     "Sorcha's ignoring him completely, very dignified", "Give it time."],
], both(["Sorcha"], ["Pudding"]), gaps=(35,))

case("add-58", "chatty", "Mirela", [
    ["Bună! Just back from parkrun at Herăstrău, new personal best 🎉 I do it every Saturday "
     "and today I finally beat my neighbour lol. Now pancakes",
     "Congratulations on the PB! Pancakes are well earned.", "With plum jam, obviously",
     "The only correct choice."],
    ["Guess who's started fencing classes as well?? Me!! 🤺 First lesson yesterday, I mostly "
     "poked the air but the coach says I have 'aggression', which I'm taking as a compliment",
     "Sounds like a compliment to me! What weapon do you use?", "Foil, for now",
     "A classic start."],
], both(["parkrun"], ["fencing"]), gaps=(16,))

case("add-59", "chatty", "Kwame", [
    ["Hey! So I mentor a boy called Kojo through the Big Brothers scheme here in Accra 😅 and "
     "he beat me at draughts AGAIN, third week running",
     "Ha! How old is he?", "Eleven and ruthless", "A formidable opponent."],
    ["The scheme matched me with Fiifi last week, a shy twelve-year-old who loves planes ✈️ "
     "and Kojo already wants to teach him draughts so he has someone to beat lol",
     "That sounds like a friendship in the making.", "Hope so", "I'm sure it will be."],
], both(["Kojo"], ["Fiifi"]), gaps=(21,))

case("add-60", "chatty", "Borbála", [
    ["Ok confession: I make my own kombucha and there's a jar on top of the fridge that looks "
     "like a science experiment 🧪 my boyfriend won't go near it. Also it's finally sunny!",
     "Home brewing always looks alarming. Does it taste good?",
     "Like fizzy apple vinegar, in a good way", "High praise."],
    ["Update from the lab 😂 I've started brewing kefir too, so now there are two jars on the "
     "fridge and my boyfriend has given up asking. My cousin is visiting from Pécs next week",
     "Sounds like a busy kitchen. Will your cousin try them?", "She'll have no choice",
     "Ha, poor cousin."],
], both(["kombucha"], ["kefir"]), gaps=(27,))

case("add-61", "terse", "Tevita", [
    ["kids: 1 daughter, salote, 6.", "nice.", "loud.", "six year olds are."],
    ["new baby. boy. viliami. born tues.", "congratulations!", "tired.", "get rest when you can."],
], both(["Salote"], ["Viliami"]), gaps=(60,))

case("add-62", "terse", "Gunnhild", [
    ["bike: cannondale road bike.", "ride far?", "60 km sundays.", "good distance."],
    ["also got a gravel bike. a surly.", "for trails?", "forest roads.", "sounds fun."],
], both(["Cannondale"], ["Surly"]), gaps=(40,))

case("add-63", "terse", "Rizwan", [
    ["gaming: ps5.", "what are you playing?", "racing stuff.", "fun."],
    ["got an xbox as well. gamepass.", "lots of games there.", "too many.", "ha."],
], both([["PS5", "playstation"]], ["xbox"]), gaps=(22,))

case("add-64", "terse", "Yolanda", [
    ["night shifts at st jude's a&e.", "tough?", "always.", "take care of yourself."],
    ["another gig. sunday mornings, teaching aqua aerobics.", "busy week.", "need the money.",
     "understood."],
], both(["Jude"], ["aqua"]), gaps=(19,))

case("add-65", "typos", "Dwayne", [
    ["i got a pitbull named Tank hes a big baby", "how old is he?", "3 i think",
     "a gentle giant then"],
    ["we got anuther dog!! a chihuahua named Bean, Tank is scared of her lol",
     "ha, that's adorable", "she bosses him around", "small but mighty"],
], both(["Tank"], ["Bean"]), gaps=(26,))

case("add-66", "typos", "Precious", [
    ["i work at Shoprite in Soweto as a stock clerk", "long shifts?", "8 hrs, on my feet all day",
     "that's tiring"],
    ["i also braid hair on weekends from home, extra cash for my studys",
     "what are you studying?", "acounting", "good luck with it"],
], both(["Shoprite"], ["braid"]), gaps=(15,))

case("add-67", "typos", "Cody", [
    ["i coach my sons little league team the Hornets", "how are they doing?",
     "2 wins 5 losses lol", "room to grow"],
    ["im coaching his sisters softball team to, the Comets. no free evenings left lol",
     "that's a lot of coaching", "worth it", "sounds like it"],
], both(["Hornets"], ["Comets"]), gaps=(30,))

case("add-68", "typos", "Maja", [
    ["i take keppra (levetiracetam) for my epilepsy", "is it working well?",
     "yea no seizures in a year", "that's great news"],
    ["doc put me on vitamin d aswell, my levels were super low", "did they say why?",
     "not enuf sun lol", "makes sense in winter"],
], both([["keppra", "levetiracetam", "epilep"]], [["vitamin d", "vit d"]]), gaps=(45,))

case("add-69", "formal", "Hildegard", [
    ["I chair the board of governors at Elmhurst Primary School.",
     "That must take a good deal of time.",
     "About a day a month, more in inspection years.", "A real commitment."],
    ["I have also accepted a seat on the Ashby Parva parish council, which meets on alternate "
     "Thursdays.", "How do you find the meetings?",
     "Long, and chiefly about potholes.", "That seems to be universal."],
], both(["Elmhurst"], ["parish council"]), gaps=(38,))

case("add-70", "formal", "Dragan", [
    ["We own a holiday cottage on the island of Korčula.", "Do you spend summers there?",
     "Every August, without exception.", "It sounds idyllic."],
    ["We have purchased a second property, a small apartment in the old town of Kotor.",
     "Will you let it to visitors?", "In the off season, I expect.",
     "That seems sensible."],
], both([["Korčula", "Korcula"]], ["Kotor"]), gaps=(70,))

case("add-71", "formal", "Marguerite", [
    ["Our daughter Clémence studies law at the Sorbonne.", "Is she enjoying it?",
     "She complains of the reading lists, which I take as a good sign.", "A fair reading."],
    ["Our younger daughter, Apolline, has begun her studies as well, in medicine at Lyon.",
     "Congratulations. A quiet house now, perhaps?", "Uncannily quiet.",
     "That takes some getting used to."],
], both([["Clémence", "Clemence"]], ["Apolline"]), gaps=(50,))

case("add-72", "formal", "Jae-won", [
    ["I am a member of the Seoul Masters Rowing Club.", "Do you row competitively?",
     "In the veterans' category, on the Han River.", "That sounds demanding."],
    ["I have joined a table tennis league as well, the Mapo Wednesday League.",
     "How are you finding the level?", "Humbling; the retirees are formidable.",
     "Experience counts."],
], both(["rowing"], ["table tennis"]), gaps=(29,))

case("add-73", "indirect", "Soledad", [
    ["I came home to soil all over the floor. My cat Tamarindo decided the basil plant was in "
     "his way.", "Oh no. Did the basil survive?", "Half of it.", "Half is something."],
    ["Yesterday we brought home a kitten from the shelter, a little calico we named Canela, and "
     "Tamarindo hissed at her all evening from the top of the wardrobe.",
     "Give them time, they often settle.", "I hope so.", "They usually do."],
], both(["Tamarindo"], ["Canela"]), gaps=(32,))

case("add-74", "indirect", "Wiremu", [
    ["My voice is gone. Our kapa haka group had practice for three hours before the regional "
     "competition.", "Rest your voice tonight.", "Honey and lemon already on the go.",
     "Good plan."],
    ["My arms are gone this time, not my voice. I joined a waka ama crew too, and we paddled "
     "around the harbour at dawn.", "That's a lot of upper body work.",
     "Kapa haka practice tonight will hurt.", "Stretch first."],
], both(["kapa haka"], ["waka"]), gaps=(23,))

case("add-75", "indirect", "Radka", [
    ["I missed my stop on the bus because I was reading my copy of Respekt, the weekly I "
     "subscribe to.", "Was it a good issue?", "A long piece on hospitals.", "Worth a missed stop."],
    ["I found something new to read.", "Oh? What is it?",
     "The Economist. I took out a subscription last week, it sits next to Respekt on my table now.",
     "Two weeklies is a lot of reading."],
], both(["Respekt"], ["Economist"]), gaps=(17,))

case("add-76", "indirect", "Ifeoma", [
    ["Sunday was lovely. My godson Chisom was baptised and he screamed through the whole thing.",
     "That's tradition, surely.", "Everyone said so.", "A memorable day."],
    ["Guess what? At the christening on Saturday I became a godmother again, to baby Ebube, and "
     "Chisom insisted on holding her.", "How sweet. Did he manage?", "For ten seconds.",
     "A promising start."],
], both(["Chisom"], ["Ebube"]), gaps=(55,))

# ---------------------------------------------------------------- change

case("chg-53", "plain", "Haider", [
    ["I work as a sales rep for a paint company.", "Do you travel a lot?",
     "Around the north, mostly.", "Lots of driving then."],
    ["I left the paint company and now I run a food truck.", "What do you serve?",
     "Kebab wraps.", "Sounds tasty."],
], change(["paint"], ["food truck"]), gaps=(60,))

case("chg-54", "plain", "Trine", [
    ["I live in Aarhus.", "Do you like it there?", "Yes, it's by the sea.", "Nice."],
    ["I moved from Aarhus to Odense last month.", "How are you settling in?",
     "Slowly. Boxes everywhere.", "It takes time."],
], change(["Aarhus"], ["Odense"]), gaps=(75,))

case("chg-55", "plain", "Oisín", [
    ["I drive a Honda Civic.", "Is it reliable?", "Very.", "Good to hear."],
    ["I sold my Civic and bought a Mazda MX-5.", "A convertible!", "Yes, for the summer.",
     "Enjoy the sun."],
], change(["Civic"], ["Mazda"]), gaps=(50,))

case("chg-56", "plain", "Nimmi", [
    ["I drink oat milk.", "In coffee or tea?", "In everything.", "Fair enough."],
    ["I switched from oat milk to soy milk.", "Any reason?", "More protein.", "Makes sense."],
], change([["oat milk", "oat-milk", "oatmilk"]], ["soy"]), gaps=(21,))

case("chg-57", "chatty", "Hollis", [
    ["Leg day survived 💪 my gym is PureLift on Canal Street and the squat rack queue was "
     "ridiculous tonight, like a theme park. Also my landlord finally fixed the boiler!",
     "Two victories in one day! How long was the queue?", "Twenty minutes, I did calf raises "
     "out of spite", "Spite is a great motivator."],
    ["So I've switched from PureLift to Hollowmere Leisure Centre, the council one 🙌 half the "
     "price and there's a pool. My wallet is thrilled",
     "That sounds like a good deal. Any queues?", "None so far!", "Long may it last."],
], change(["PureLift"], ["Hollowmere"]), gaps=(40,))

case("chg-58", "chatty", "Esmé", [
    ["Morning ☀️ I listen to everything on Deezer, and my Flow this morning was weirdly all "
     "sea shanties?? no complaints honestly. Off to the market now",
     "Sea shanties are a strong start to a day. Enjoy the market!", "Will do!",
     "Have fun."],
    ["Little life update: these days I'm on Apple Music because it came with my new phone "
     "bundle 🎧 still figuring out the playlists. Also I adopted a cactus",
     "A cactus is a low-maintenance friend. How are the playlists going?",
     "Messy but getting there", "It'll come together."],
], change(["Deezer"], ["Apple Music"]), gaps=(35,))

case("chg-59", "chatty", "Nkechi", [
    ["Hiii! We live in a rented flat in Peckham and the people upstairs have discovered "
     "tap dancing 😩 at midnight. Anyway, how's your week?",
     "Quieter than yours, it sounds! Have you talked to them?",
     "Left a very polite note", "A classic first move."],
    ["WE DID IT 🏡 We've moved to Margate! Bought a tiny terrace five minutes from the sea and "
     "the only noise is seagulls. I'm never complaining again (I will)",
     "Congratulations! Seagulls can be loud too, though.", "Don't ruin this for me 😂",
     "My lips are sealed."],
], change(["Peckham"], ["Margate"]), gaps=(120,))

case("chg-60", "chatty", "Kiona", [
    ["Ugh, we lost 9–4 😭 I play goalkeeper for the Lakeside Otters water polo team and my "
     "shoulders are wrecked. Pizza tonight, no regrets",
     "Nine goals is a lot to face. Pizza is the right call.", "Pepperoni, extra cheese",
     "A classic."],
    ["Big change: I left the Otters, and now I play for the Rivergate Pike 🐟 their coach "
     "actually does drills, imagine that. First match Saturday!",
     "Exciting! Are you still in goal?", "Yep, same cage", "Good luck on Saturday."],
], change(["Otters"], ["Rivergate"]), gaps=(45,))

case("chg-61", "terse", "Arnav", [
    ["job: junior dev at quillsoft.", "like it?", "decent.", "ok."],
    ["not junior anymore. senior dev now, same place.", "congrats.", "more meetings.",
     "comes with it."],
], change(["junior"], ["senior"]), gaps=(90,))

case("chg-62", "terse", "Halima", [
    ["energy supplier: octopus.", "ok.", "bills still high.", "they are everywhere."],
    ["switched to edf. cheaper fix.", "good.", "we'll see.", "fair."],
], change(["Octopus"], ["EDF"]), gaps=(30,))

case("chg-63", "terse", "Radek", [
    ["living: shared house, zizkov. 4 flatmates.", "busy house.", "always.", "sounds it."],
    ["new flat in smichov. just me.", "quiet at last.", "finally.", "enjoy it."],
], change([["Zizkov", "Žižkov"]], [["Smichov", "Smíchov"]]), gaps=(65,))

case("chg-64", "terse", "Mahlet", [
    ["tea: black tea, 3 sugars. all day.", "that's a lot of sugar.", "i know.", "ok."],
    ["rooibos now. no sugar. doctor's orders.", "good move.", "tastes like hay.",
     "it grows on you."],
], change(["black tea"], ["rooibos"]), gaps=(28,))

case("chg-65", "typos", "Tyrell", [
    ["i deliver for doordash most nights", "busy?", "fridays r crazy", "stay safe out there"],
    ["swiched from doordash to amazon flex, better pay per hour", "nice", "less tips tho",
     "trade-offs"],
], change([["DoorDash", "door dash"]], ["Amazon"], extra_none=["swiched"]), gaps=(33,))

case("chg-66", "typos", "Graciela", [
    ["we rent a house in Hermosillo, its sooo hot in summer", "how hot?", "45 degres",
     "that's brutal"],
    ["we moved to Tucson last week finaly, still hot lol", "settling in?",
     "kids start school monday", "good luck to them"],
], change(["Hermosillo"], ["Tucson"]), gaps=(80,))

case("chg-67", "typos", "Darian", [
    ["i drive a 2012 ford ranger, high milage but runs", "good truck?", "tank of a truck",
     "nice"],
    ["sold the ranger and got a toyota tacoma!! used but clean", "congrats",
     "gas milage is worse lol", "always a catch"],
], change(["Ranger"], ["Tacoma"]), gaps=(55,))

case("chg-68", "typos", "Roxanne", [
    ["my doctor is dr patel at Elmwood clinic", "do you like her?", "shes ok, always late",
     "that's common"],
    ["no longer at elmwood, my docter now is dr okafor at riverside health", "better so far?",
     "way better, on time!!", "what a difference"],
], change(["Elmwood"], ["Okafor"]), gaps=(42,))

case("chg-69", "formal", "Wilhelmina", [
    ["I am employed as a conveyancing solicitor at Brandt & Vos in Rotterdam.",
     "Is it a large firm?", "Some sixty lawyers, which is modest by local standards.",
     "A good size to know everyone."],
    ["I have left Brandt & Vos and am now in-house counsel at Halvorsen Shipping.",
     "That's quite a shift. What appealed to you?",
     "Predictable hours, principally.", "A sound reason."],
], change(["Brandt"], ["Halvorsen"]), gaps=(95,))

case("chg-70", "formal", "Bartholomew", [
    ["For our annual holiday we invariably rent a gîte in the Dordogne.",
     "What draws you back each year?", "The markets, and my wife's fondness for walnuts.",
     "Walnuts are a fine reason."],
    ["These days we spend our holidays on a narrowboat on the Llangollen Canal rather than in "
     "the Dordogne; my knees prefer it.", "Is it restful?",
     "Extraordinarily, apart from the locks.", "Locks sound like exercise."],
], change(["Dordogne"], ["narrowboat"]), gaps=(200,))

case("chg-71", "formal", "Mwajuma", [
    ["I lecture in statistics at the University of Dodoma.", "What do you teach?",
     "Mostly survey methods to second-year students.", "A useful subject."],
    ["I have taken up a post at Mzumbe University, having left Dodoma at the end of March.",
     "How do you find the new campus?", "Greener, and considerably quieter.",
     "That sounds pleasant."],
], change(["Dodoma"], ["Mzumbe"]), gaps=(110,))

case("chg-72", "formal", "Constance", [
    ["I cycle to chambers each morning on a Brompton.", "Is it a long ride?",
     "Twenty minutes, along the Embankment.", "A pleasant route."],
    ["I have exchanged the Brompton for an electric bicycle, a Riese & Müller, as the hill "
     "home was becoming tiresome.", "Do you miss the exertion?", "Not in the least.",
     "Understandable."],
], change(["Brompton"], ["Riese"]), gaps=(48,))

case("chg-73", "indirect", "Babajide", [
    ["Evening. Finally home.", "Welcome back. How was work?",
     "Long. Twelve hours at the Ikeja branch of Zenith Bank and the generator failed twice.",
     "That sounds exhausting. Get some sleep."],
    ["First week at the Lekki branch is done. The manager there actually says good morning, "
     "can you imagine?", "That's a good sign. How is the commute?",
     "Worse, but I'll live.", "Glad the week went well."],
], change(["Ikeja"], ["Lekki"]), gaps=(70,))

case("chg-74", "indirect", "Paz", [
    ["I got soaked walking home from the Calle Ancha language school where I teach English. "
     "My umbrella turned inside out.", "Did you at least make it home quickly?",
     "Eventually.", "Dry off and rest."],
    ["You asked about work: I teach at the British Institute now. I left Calle Ancha in "
     "May, and the new staffroom has a proper coffee machine.",
     "That's a big quality-of-life upgrade.", "Honestly, yes.", "Enjoy it."],
], change(["Calle Ancha"], ["British Institute"]), gaps=(90,))

case("chg-75", "indirect", "Farrukh", [
    ["My Damas minivan broke down again on the way to the bazaar, with forty kilos of melons "
     "in the back.", "Oh no. Did you get it going?", "A neighbour towed me.",
     "Good neighbours are priceless."],
    ["Remember my van trouble?", "I do. How did it end?",
     "I replaced it with a Chevrolet Cobalt. I sold the Damas to my cousin for his farm.",
     "A good home for it."],
], change(["Damas"], ["Cobalt"]), gaps=(60,))

case("chg-76", "indirect", "Ayaan", [
    ["I take singing lessons with a teacher called Marisa in Clapham, and today she made me "
     "sing the same four bars for half an hour.", "Did it help?", "By the end, yes.",
     "Repetition works."],
    ["My new singing teacher, Beatrix, had me lying on the floor doing breathing exercises. I "
     "stopped going to Marisa after she moved her studio to Kent.", "How do you find Beatrix?",
     "Strict but brilliant.", "Sounds promising."],
], change(["Marisa"], ["Beatrix"]), gaps=(38,))

# ---------------------------------------------------------------- stop

case("stop-53", "plain", "Hamid", [
    ["I chew nicotine gum every day.", "How many pieces?", "About ten.", "That's a fair few."],
    ["I gave up nicotine gum in March.", "Well done.", "It was hard.", "I bet."],
], stop("nicotine gum"), gaps=(45,))

case("stop-54", "plain", "Clodagh", [
    ["I go to a spin class at Pedal House every Tuesday.", "Is it tough?", "Very sweaty.",
     "Sounds it."],
    ["I cancelled my Pedal House membership.", "How come?", "It got too expensive.",
     "Fair enough."],
], stop("Pedal House"), gaps=(30,))

case("stop-55", "plain", "Ravindra", [
    ["I eat a chocolate bar every afternoon.", "Any favourite?", "Dairy Milk.",
     "A classic."],
    ["I cut out chocolate completely.", "How is it going?", "I miss it.", "Hang in there."],
], stop("chocolate"), gaps=(22,))

case("stop-56", "plain", "Marit", [
    ["I stream on Twitch every Friday night.", "What do you stream?", "Puzzle games.",
     "Fun."],
    ["I stopped streaming on Twitch.", "Why is that?", "It took too much time.",
     "Understandable."],
], stop("Twitch"), gaps=(40,))

case("stop-57", "chatty", "Desmond", [
    ["Lol ok, so I'm on Hinge every night swiping like it's a part-time job 📱 had a date "
     "Thursday and she brought her mum?? Anyway how are you",
     "That's a first! Did the mum approve?", "I think so?? She ordered dessert for all of us",
     "A good sign, maybe."],
    ["Deleted Hinge!! 🎉 I'm done with dating apps, going to try meeting people the old way, "
     "like at a pub quiz or something", "That sounds healthier. Any quiz in mind?",
     "The one at the Crown on Wednesdays", "Good luck!"],
], stop("Hinge"), gaps=(25,))

case("stop-58", "chatty", "Ottavia", [
    ["Ciao! It's 30 degrees and I have an Aperol spritz every evening on the balcony, it's "
     "basically my religion 🍹 tonight watching the swifts. How's your evening?",
     "Calm, thank you. Swifts are lovely to watch.", "They scream like tiny jets lol",
     "They do!"],
    ["So, news: I haven't had a spritz since New Year, I've given up alcohol for the whole year "
     "🙃 my balcony evenings are now lemonade evenings. Weirdly I'm sleeping better",
     "Better sleep is a great reward.", "Don't tell my friends I said that",
     "Your secret is safe."],
], stop("spritz"), gaps=(160,))

case("stop-59", "chatty", "Ekow", [
    ["Morning... barely 😴 I play Football Manager till 2am most nights and last night I "
     "finally got Hearts of Oak into the Champions League. Worth it. Probably.",
     "Congratulations, manager! How's the tiredness?", "Three coffees deep",
     "Take it easy today."],
    ["Ok I've packed in Football Manager for good, uninstalled it and everything 🗑️ I was "
     "falling asleep at my desk. Now reading before bed like a grown-up",
     "That's a big change. What are you reading?", "A crime novel set in Cape Coast",
     "Sounds gripping."],
], stop("Football Manager"), gaps=(34,))

case("stop-60", "chatty", "Thandeka", [
    ["Hi!! I go to karaoke at the Blue Finch every Thursday with the girls from work 🎤 tonight "
     "I'm doing Whitney, wish me luck", "Good luck! That's a brave choice.",
     "Go big or go home", "Exactly."],
    ["Funny thing, I don't go to karaoke any more, my throat doctor told me to rest my voice "
     "for good 😔 so now Thursdays are board games instead", "Board games can be fun. Which ones?",
     "Mostly Ticket to Ride", "A great one."],
], stop("karaoke"), gaps=(48,))

case("stop-61", "terse", "Ruslan", [
    ["banya every sunday. lesnaya street.", "hot?", "very.", "enjoy."],
    ["banya: stopped. heart thing.", "take care.", "doctor says so.", "listen to them."],
], stop("banya"), gaps=(52,))

case("stop-62", "terse", "Signe", [
    ["snus daily. general white.", "ok.", "one pouch after lunch.", "noted."],
    ["snus: quit. 3 weeks now.", "well done.", "cranky.", "it passes."],
], stop("snus"), gaps=(38,))

case("stop-63", "terse", "Soo-ah", [
    ["order tteokbokki on baemin. 4x a week.", "spicy?", "very.", "ok."],
    ["deleted baemin. cooking now.", "good for you.", "rice every day.", "a start."],
], stop("Baemin"), gaps=(27,))

case("stop-64", "terse", "Gaspard", [
    ["le monde subscription. digital.", "read daily?", "mornings.", "good habit."],
    ["cancelled le monde. too expensive.", "ok.", "radio now.", "fine."],
], stop("Le Monde"), gaps=(44,))

case("stop-65", "typos", "Krystal", [
    ["i go to the tanning salon 3 times a week lol", "what's the appeal?",
     "feel good, look good", "fair"],
    ["i stoped tanning, derm found a weird mole and it scared me", "i'm glad you got it checked",
     "it was fine but stil", "good call"],
], stop("tanning"), gaps=(36,))

case("stop-66", "typos", "Jermaine", [
    ["i drink like 4 mountain dews a day", "that's a lot of sugar", "and caffine lol",
     "that too"],
    ["gave up mountain dew, 2 weeks clean, headaches r real", "they'll pass",
     "hope so", "hang in there"],
], stop(["mountain dew", "mtn dew"]), gaps=(29,))

case("stop-67", "typos", "Clíona", [
    ["i go to bingo at the parish hall every tuesday with my nan", "do you ever win?",
     "won 20 quid once", "a legend"],
    ["no more bingo for me, nan moved into a home and its not the same witout her",
     "i'm sorry, that's hard", "ya", "i hope you can visit her often"],
], stop("bingo"), gaps=(57,))

case("stop-68", "typos", "Dusty", [
    ["i chew tobacco, copenhagen, a can every 2 days", "how long for?", "since 16",
     "a long time"],
    ["quit chewin tobacco!! 30 days today", "congratulations", "wife is happy", "I bet"],
], stop(["tobacco", "Copenhagen"]), gaps=(62,))

case("stop-69", "formal", "Perpetua", [
    ["I take a sleeping tablet, zopiclone, each night at ten.", "Does it help you sleep?",
     "Reasonably well, though I wake groggy.", "That is a common complaint."],
    ["On my physician's advice I have discontinued the zopiclone, and I am trying a "
     "programme of sleep hygiene.", "How is it going?",
     "Slowly, but the mornings are clearer.", "A good sign."],
], stop("zopiclone"), gaps=(41,))

case("stop-70", "formal", "Wendell", [
    ["I hold a membership at Wexley Golf Club and play eighteen holes every Saturday.",
     "What is your handicap?", "Fourteen, on a generous day.", "Respectable."],
    ["I have resigned my membership of Wexley Golf Club; my back will no longer tolerate the "
     "game.", "I'm sorry to hear that. Any other pastimes in mind?",
     "Bowls, I suspect, which my wife finds hilarious.", "Bowls can be very competitive."],
], stop("golf"), gaps=(66,))

case("stop-71", "formal", "Hyacinth", [
    ["I volunteer as a Samaritans listener every Wednesday night.",
     "That is demanding work.", "It is, but it matters a great deal.", "It certainly does."],
    ["I have stepped down as a Samaritans listener after nine years; I found I needed my "
     "evenings back.", "Nine years is a long service.", "It felt like the right moment.",
     "That sounds wise."],
], stop("Samaritans"), gaps=(58,))

case("stop-72", "formal", "Ezinne", [
    ["I take a low-dose aspirin every morning.", "Was that your doctor's suggestion?",
     "Yes, some years ago.", "I see."],
    ["My cardiologist has advised me to cease taking aspirin, as the risks now outweigh the "
     "benefits.", "Are you comfortable with that?", "Entirely; she explained it well.",
     "That's reassuring."],
], stop("aspirin"), gaps=(37,))

case("stop-73", "indirect", "Mandla", [
    ["After my usual Friday night at the snooker hall in Pietermaritzburg, I walked out to find "
     "a flat tyre and no spare.", "What did you do?", "Called my brother at midnight.",
     "He must have loved that."],
    ["Weekend at last.", "Any plans?",
     "Gardening. I haven't picked up a cue since June; I'm done with snooker, my eyes can't "
     "judge the angles now.", "Gardening is a good change of pace."],
], stop("snooker"), gaps=(100,))

case("stop-74", "indirect", "Nasrin", [
    ["What are you doing tonight?", "Nothing, I'm an assistant! And you?",
     "My Babbel Turkish lesson, I do one every night before bed.", "Sounds like a routine."],
    ["My friend in Izmir laughed at me today because I let my Babbel streak die and ditched it "
     "for good; she says I should just visit more.", "That's one way to learn.",
     "The best way, probably.", "Agreed."],
], stop("Babbel"), gaps=(53,))

case("stop-75", "indirect", "Henrike", [
    ["A swan hissed at a jogger this morning when I went to feed the swans at the Alster with "
     "my bag of bread, like every morning.", "Was the jogger all right?", "Offended, mostly.",
     "Ha, understandable."],
    ["The warden at the Alster told us bread is bad for them, so I've stopped feeding the swans "
     "entirely. Now I just walk past and wave.", "That's kind of you to listen.",
     "They still hiss.", "Some things never change."],
], stop("swan"), gaps=(31,))

case("stop-76", "indirect", "Uchenna", [
    ["My brother laughed at me at dinner because I write in a paper diary every night, with a "
     "fountain pen.", "It's a lovely habit.", "He thinks it's old-fashioned.", "Let him."],
    ["Clearing my desk today, I realised I haven't written in my diary for months. Honestly, "
     "I've given it up; I journal in my head on the bus now.", "Does that feel like a loss?",
     "A bit, but I'm fine.", "That's what matters."],
], stop("diary"), gaps=(75,))


def build():
    out = []
    start = datetime(2023, 1, 4)
    agents = {"same": 0, "addition": 1, "change": 2, "stop": 3}
    cls_of = {"same": "same", "add": "addition", "chg": "change", "stop": "stop"}
    for k, c in enumerate(CASES):
        cls = cls_of[c["id"].split("-")[0]]
        agent = AGENTS[(k + agents[cls]) % len(AGENTS)]
        day = start + timedelta(days=6 * k + (k % 3))
        hh, mm = map(int, TIMES[k % len(TIMES)].split(":"))
        at = day.replace(hour=hh, minute=mm)
        sessions = []
        for si, texts in enumerate(c["sessions"]):
            if si > 0:
                at = at + timedelta(days=c["gaps"][min(si - 1, len(c["gaps"]) - 1)], minutes=35)
            turns = [{"speaker": c["partner"] if i % 2 == 0 else agent, "text": t.strip()}
                     for i, t in enumerate(texts)]
            sessions.append({"at": at.strftime("%Y-%m-%dT%H:%M"), "turns": turns})
        out.append({"id": c["id"], "class": cls, "style": c["style"], "partner": c["partner"],
                    "agent": agent, "sessions": sessions, "expect": c["expect"]})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.jsonl")
    with open(path, "w", encoding="utf-8") as f:
        for c in out:
            f.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    build()
