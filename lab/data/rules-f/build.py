#!/usr/bin/env python3
"""Hand-written source of the sixth rules set, rules-f (cases.jsonl). Standard library only.

Usage: python3 build.py   (writes cases.jsonl next to this file)

A case is written as: id, style, partner, agent, its sessions and its expectations.
A session is (gap_days, "HH:MM", [turn texts]); the partner speaks first and the speakers
alternate. The first session of the case at position k in the file (k = 0..95) falls on
2023-01-03 + 7*k days; gap_days of a later session counts from the previous session's date.
Matchers: a list is {"all": list}; stop(habit) and change(new, old) build the class matchers.
This set is change-heavy: 12 same, 18 addition, 48 change, 18 stop.
"""
import json
import os
from datetime import datetime, timedelta

# stop words: a memory about the habit that carries one of these is the stop, not the habit
# (the list of rules-d plus a few phrasings used here: "gave ... away", "is over", "binned", ...)
STOPW = ["quit", "stop", "gave up", "given up", "give up", "giving up", "no longer", "anymore",
         "any more", "cut out", "cancel", "discontinu", "drop", "packed in", "kicked", "ditch",
         "ceas", "called it", "calling it", "done with", "n't", "not ", "never", "without",
         "used to", "delet", "left ", "sold", "finish", "no more", "unsubscrib", "ended",
         "relinquish", "retir", "resign", "former", "gone", "dont ", "didnt", "doesnt",
         "away", "is over", "'s over", "s over", "over now", "binned", "lapse", "uninstall",
         "haven", "hasn"]
# change words: a memory naming the old state together with one of these records the change
CHGW = ["used to", "former", "previous", "no longer", "anymore", "any more", "switch", "swap",
        "sold", "moved", "instead", "left ", "until", "stop", "quit", "replac", "traded",
        "transferred", "relocat", "resign", "changed", "these days", "nowadays", "gone from",
        "before", "earlier", "ex-", "not "]
# a memory that the old pet / device / partner is gone is also about the change
DEATH = ["died", "dead", "passed", "death", "lost ", "broke up", "split", "ditch", "dump", "retir"]

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
    # keywords shared by old and new (the person, the thing) are not evidence of the change
    none = [a for e in new if e not in old for a in ([e] if isinstance(e, str) else e)]
    none += list(extra_none) + CHGW
    case(cid, style, partner, agent, sessions, active=[new], retired=[{"all": old, "none": none}])


# ---------------------------------------------------------------- same
# odd ids: exact repeats; even ids: rewordings with the same names and numbers

case("same-201", "plain", "Maelis", "Corvin", [
    (0, "18:10", ["My daughter Ysolde is in Year 5 at Fernbrook Primary.", "Nice. How is she getting on?",
                  "Really well, she loves the library corner.", "Good to hear."]),
    (14, "19:00", ["My daughter Ysolde is in Year 5 at Fernbrook Primary. She has a spelling test tomorrow.",
                   "Good luck to her with the test."]),
], once=[["Ysolde", "Fernbrook"]])

case("same-202", "plain", "Tobenna", "Idony", [
    (0, "07:40", ["I work nights as a baker at Crumb & Co in Harrogate.", "That must mean early mornings. Do you like it?",
                  "I do. The smell alone is worth it.", "I can imagine."]),
    (21, "08:15", ["Just finished my shift. I'm the night baker at Crumb & Co, the Harrogate one.",
                   "Get some sleep!"]),
], once=[["Crumb", "Harrogate"]])

case("same-203", "chatty", "Rosheen", "Lark", [
    (0, "20:30", ["omg long day 😩 anyway my brother Anwell lives in Gdynia and teaches sailing, he keeps begging me to visit and honestly I might this summer",
                  "That sounds like a lovely trip. Would you go by ferry or fly?",
                  "fly probably, I get seasick which is hilarious given who my brother is 😂", "Ha, fair enough."]),
    (30, "21:05", ["my brother Anwell lives in Gdynia and teaches sailing, and it's his birthday today 🎂 sent him a card with a little boat on it lol",
                   "Brilliant, I hope the sea behaves."]),
], once=[["Anwell", "Gdynia"]])

case("same-204", "chatty", "Pavlina", "Maddox", [
    (0, "19:20", ["I've got two ferrets, Mochi and Brisket, and they have stolen ALL my socks this week 🧦",
                  "They are famous for that. Where do they hide them?",
                  "behind the sofa, it's like a sock museum back there", "A museum of stolen goods."]),
    (18, "18:45", ["Mochi and Brisket are my pair of ferrets, and my mum STILL calls them rats 🙄 the cheek",
                   "Ha, some people never come round."]),
], once=[["ferret", ["two", "2", "pair"]]])

case("same-205", "terse", "Okwudili", "Perrin", [
    (0, "12:05", ["allergic to lupin. check flour labels pls", "Noted. That flour turns up in some breads.",
                  "yeah. bad reaction last time", "Sorry to hear that."]),
    (25, "12:40", ["going to a work buffet thing. allergic to lupin. reminder for me", "I hope the buffet is safe."]),
], once=[["lupin"]])

case("same-206", "terse", "Saskia", "Sefton", [
    (0, "09:00", ["rent is 740 a month. due on the 1st", "Got it.", "tight but ok", "Understood."]),
    (20, "09:10", ["740/month rent, paid on the first. just so u know for budgeting", "Thanks, that helps."]),
], once=[["740"]])

case("same-207", "typos", "Brennagh", "Tamsen", [
    (0, "22:10", ["my sisters weddin is on 9 august in kinsale", "How exciting. Are you in the wedding party?",
                  "yep bridesmaid, dress is lilac eek", "Lilac can be lovely."]),
    (35, "21:50", ["soooo stressed. my sisters weddin is on 9 august in kinsale and i still havent got shoes",
                   "There's still time to find some."]),
], once=[["Kinsale", ["9", "nine"]]])

case("same-208", "typos", "Dimitrije", "Bellamy", [
    (0, "17:30", ["i drive a ford transit for work, the white one with the dent", "How long have you had it?",
                  "bout 4 yrs", "That's a good run."]),
    (15, "17:55", ["forgot to say my work van is a white ford transit, the one w the dent", "Thanks, noted."]),
], once=[["Transit"]])

case("same-209", "formal", "Aurelian", "Corvin", [
    (0, "10:30", ["I serve as churchwarden at St Ebba's in Coldingham.", "That is a considerable responsibility.",
                  "It is, though a rewarding one.", "I can believe that."]),
    (28, "11:00", ["Forgive the brevity today. I serve as churchwarden at St Ebba's in Coldingham, and this is a busy season.",
                   "Of course, I understand."]),
], once=[["Ebba"]])

case("same-210", "formal", "Honoria", "Idony", [
    (0, "15:00", ["My mother, Ottoline, is eighty-four and lives with my sister in Aberaeron.", "Do you visit often?",
                  "Every second month, when work allows.", "That sounds like a good rhythm."]),
    (40, "15:20", ["As I may have mentioned, my 84-year-old mother Ottoline lives with my sister in Aberaeron; her health remains good.",
                   "I am glad to hear she is well."]),
], once=[["Ottoline", "Aberaeron"]])

case("same-211", "indirect", "Tuulikki", "Lark", [
    (0, "19:45", ["You would not believe the walk we had. Bramwell is my springer spaniel, and he found a dead crab and rolled in it.",
                  "That sounds very fragrant. Did a bath follow?", "Two baths.", "Poor you."]),
    (22, "20:10", ["Dry skin, says the vet, nothing worse. Bramwell is my springer spaniel, by the way, if I never said.",
                   "Good that it is nothing serious."]),
], once=[["Bramwell", "springer"]])

case("same-212", "indirect", "Ngaio", "Maddox", [
    (0, "16:30", ["The storm was a worry.", "Where do you keep your boat?",
                  "At the marina in Picton, berth 31. She rode it out fine.", "What a relief."]),
    (26, "17:00", ["A friend asked where to find me at weekends. Berth thirty-one at Picton marina, that's where the boat lives.",
                   "Easy to find, then."]),
], once=[["Picton", ["31", "thirty-one", "thirty one"]]])

# ---------------------------------------------------------------- addition

case("add-201", "plain", "Ebrima", "Perrin", [
    (0, "18:00", ["I work as a plumber for Ashdown Heating.", "Busy time of year for you?", "Very.", "I bet."]),
    (20, "18:30", ["I also do weekend shifts at a garden shop called Fernleaf these days.", "That's a full week."]),
], active=[["Ashdown"], ["Fernleaf"]])

case("add-202", "plain", "Liadan", "Sefton", [
    (0, "13:00", ["My best friend is Oriel. We met at college.", "That's a long friendship."]),
    (30, "13:20", ["I've made a new friend at work. Her name is Thessaly.", "That's nice. What's she like?",
                   "Funny and very direct.", "Sounds like a good match."]),
], active=[["Oriel"], ["Thessaly"]])

case("add-203", "plain", "Corentin", "Tamsen", [
    (0, "19:00", ["I play the cornet in the Brassfield Silver Band.", "Do you have concerts coming up?", "One in May.", "Good luck."]),
    (25, "19:15", ["I've joined a second band, the Marlow Wind Ensemble.", "Two bands! That's a lot of rehearsing."]),
], active=[["Brassfield"], ["Marlow"]])

case("add-204", "chatty", "Zephyrine", "Bellamy", [
    (0, "21:00", ["my cat Pumice has decided 5am is breakfast time 😤 every single day", "Cats are very sure about schedules.",
                  "he's lucky he's cute", "Very lucky."]),
    (16, "20:40", ["BIG NEWS we adopted a kitten!! she's called Quartz and she's tiny and fearless, Pumice is not impressed lol",
                   "Congratulations! I hope they become friends."]),
], active=[["Pumice"], ["Quartz"]])

case("add-205", "chatty", "Anouska", "Corvin", [
    (0, "18:30", ["so I've been doing Greek lessons on Tuesday nights, mostly because of a holiday I'm planning 🇬🇷", "How are you finding the alphabet?",
                  "slowly getting there haha", "It gets easier."]),
    (28, "19:00", ["ok I'm a language nerd now, started Icelandic on top of everything, the grammar is wild 😅",
                   "That's ambitious. Enjoy it!"]),
], active=[["Greek"], ["Iceland"]])

case("add-206", "chatty", "Bartosz", "Idony", [
    (0, "17:45", ["my day job is at Kettering Council, housing team, it's a lot of paperwork but the people are great", "Sounds busy.",
                  "it is!", "I can imagine."]),
    (21, "18:10", ["soooo I got another job on the side, delivering flowers for Petalpost on Saturdays 🌷 extra cash for the holiday",
                   "That sounds like a cheerful side job."]),
], active=[["Kettering"], ["Petalpost"]])

case("add-207", "terse", "Idunn", "Lark", [
    (0, "07:10", ["run club: Hillrunners, thurs nights", "Nice.", "10k loop usually", "Good distance."]),
    (19, "07:20", ["joined Otterpool sunday swim group too", "Nice mix."]),
], active=[["Hillrunner"], ["Otterpool"]])

case("add-208", "terse", "Vashti", "Maddox", [
    (0, "14:00", ["son Caspian, 7. mad about dinosaurs", "Great age for that."]),
    (45, "14:30", ["baby girl arrived. Linnet. 3.2kg", "Congratulations!", "tired lol", "I'm sure."]),
], active=[["Caspian"], ["Linnet"]])

case("add-209", "terse", "Rhodri", "Perrin", [
    (0, "08:30", ["on ramipril for bp", "Okay.", "morning dose", "Thanks."]),
    (30, "08:45", ["gp added bisoprolol. evening.", "Noted, hope it helps."]),
], active=[["ramipril"], ["bisoprolol"]])

case("add-210", "typos", "Keturah", "Sefton", [
    (0, "20:00", ["my sister Philomena lives in cardiff, shes a hairdreser", "Do you see her much?",
                  "most weekends", "That's lovely."]),
    (33, "20:30", ["found out i have a half sister!! her names Gwendolen and she lives in swansea, we met for coffe on sat",
                   "What a big discovery. How did it go?", "amazing honestly", "I'm really glad."]),
], active=[["Philomena"], ["Gwendolen"]])

case("add-211", "typos", "Darragh", "Tamsen", [
    (0, "21:15", ["i suport Shelbourne since i was a kid", "Going to the match this week?", "ya", "Enjoy it."]),
    (24, "21:40", ["started folowing Drogheda too, my mate got me a season tiket", "Two clubs to cheer for then."]),
], active=[["Shelbourne"], ["Drogheda"]])

case("add-212", "typos", "Maksym", "Bellamy", [
    (0, "16:00", ["got a vizsla called Tolya, hes 3", "Vizslas need a lot of exercise.", "tell me about it lol", "Ha."]),
    (27, "16:20", ["we got a new pup!! anuther vizsla, Sasha, 10 weeks", "How is the older dog taking it?",
                   "Tolya loves her tbh", "That's great."]),
], active=[["Tolya"], ["Sasha"]])

case("add-213", "formal", "Cordelia", "Corvin", [
    (0, "11:00", ["I hold a seat on the board of the Ravensworth Trust.", "What does the Trust support?",
                  "Rural schools in the dales.", "A worthy cause."]),
    (35, "11:30", ["I have additionally accepted a trusteeship with the Fellside Music Society.", "Congratulations on the appointment."]),
], active=[["Ravensworth"], ["Fellside"]])

case("add-214", "formal", "Ignatia", "Idony", [
    (0, "10:00", ["I own a flat in Aberdeen, which I let to students.", "Is that arrangement working well?",
                  "Admirably so far.", "Good."]),
    (50, "10:20", ["I have completed the purchase of a second property, a cottage in Portsoy.", "Congratulations on the purchase."]),
], active=[["Aberdeen"], ["Portsoy"]])

case("add-215", "formal", "Sinead", "Lark", [
    (0, "19:30", ["I sing with the Carrowmore Chamber Singers.", "What are you rehearsing?", "Fauré's Requiem.", "Beautiful piece."]),
    (30, "19:45", ["I have joined the Ballina Gospel Choir as well, which rehearses on alternate Sundays.", "That is a lovely contrast."]),
], active=[["Carrowmore"], ["Ballina"]])

case("add-216", "indirect", "Odhran", "Maddox", [
    (0, "17:00", ["My grandson Fiachra came over and we spent the whole afternoon building a bird table that leans to the left.",
                  "It sounds like it has character.", "Like its builders.", "Ha."]),
    (40, "17:30", ["Long drive back from the maternity ward. My daughter had her second, a boy, Eoghan, and Fiachra wanted to hold him straight away.",
                   "Congratulations to all of you."]),
], active=[["Fiachra"], ["Eoghan"]])

case("add-217", "indirect", "Nkiruka", "Perrin", [
    (0, "20:00", ["Trying to be good with money this year.", "What do you use for budgeting?",
                  "Monzo pots, one for bills and one for fun.", "Sensible."]),
    (25, "20:15", ["My friend Adanna got me onto YNAB last week, so I've got that running alongside the pots and it's frightening how much I spend on lunch.",
                   "At least you can see it now."]),
], active=[["Monzo"], ["YNAB"]])

case("add-218", "indirect", "Pernille", "Sefton", [
    (0, "21:00", ["Got home late because my woodturning club ran over, someone's bowl exploded on the lathe.", "Goodness, was anyone hurt?",
                  "No, just pride.", "Glad to hear it."]),
    (22, "21:20", ["Cut my thumb on a piece of stained glass tonight, it's my new Wednesday class, and the tutor says everyone gets a cut in week one.",
                   "Ouch. Mind your fingers."]),
], active=[["woodturn"], ["stained glass"]])

# ---------------------------------------------------------------- change

change("chg-201", "plain", "Eustace", "Tamsen", [
    (0, "18:00", ["I work as a sales rep for a paint company, Harlow Coatings.", "Lots of driving?", "Loads.", "I thought so."]),
    (30, "18:20", ["I run a dumpling stand at Spitalgate Market now.", "How fun! What fillings do you do?",
                   "Pork and chive, and a mushroom one.", "Sounds delicious."]),
], new=["dumpling"], old=["Harlow"])

change("chg-202", "plain", "Mireille", "Bellamy", [
    (0, "12:30", ["My phone is a Xiaomi.", "Are you happy with it?", "Yes, the battery is great.", "Good."]),
    (20, "12:45", ["The Xiaomi died, so it's an Oppo now.", "Hope the new one treats you well."]),
], new=["Oppo"], old=["Xiaomi"])

change("chg-203", "plain", "Radhika", "Corvin", [
    (0, "17:00", ["My hair is dyed purple.", "Bold choice!", "I love it.", "It sounds fun."]),
    (25, "17:10", ["I went copper last week. Bye bye purple, hello copper.", "Sounds lovely."]),
], new=["copper"], old=["purple"])

change("chg-204", "plain", "Gilchrist", "Idony", [
    (0, "19:00", ["My sketch club meets on Friday evenings.", "What do you draw there?", "Mostly people in the cafe.", "Nice."]),
    (21, "19:30", ["Sketch club is on Sunday mornings from this month.", "Mornings can be good for drawing."]),
], new=["sketch", "Sunday"], old=["sketch", "Friday"])

change("chg-205", "plain", "Philippe", "Lark", [
    (0, "16:00", ["I have a rabbit called Turnip.", "How old is he?", "Six.", "A good age for a rabbit."]),
    (40, "16:20", ["Turnip died in the spring, and we have a guinea pig called Nutmeg now.", "Sorry for your loss, and welcome to the new arrival."]),
], new=["Nutmeg"], old=["Turnip"], extra_none=DEATH)

change("chg-206", "plain", "Winnie", "Maddox", [
    (0, "08:00", ["I take omeprazole every morning.", "With breakfast?", "Before.", "Okay."]),
    (30, "08:10", ["My doctor swapped the omeprazole for lansoprazole.", "I hope it works better for you."]),
], new=["lansoprazole"], old=["omeprazole"])

change("chg-207", "plain", "Anselma", "Perrin", [
    (0, "14:00", ["I bank with Lloyds.", "Do you use their app?", "Yes.", "Good."]),
    (20, "14:15", ["I ditched Lloyds for Starling.", "What made you go for them?",
                   "Better notifications.", "Makes sense."]),
], new=["Starling"], old=["Lloyds"])

change("chg-208", "plain", "Desmonda", "Sefton", [
    (0, "06:30", ["I'm a shift supervisor at the Corby distribution centre.", "Long shifts?", "Twelve hours.", "That's tough."]),
    (35, "06:45", ["I got promoted to site manager at Corby.", "Congratulations!"]),
], new=["site manager"], old=["supervisor"], extra_none=["promot"])

change("chg-209", "chatty", "Soraia", "Tamsen", [
    (0, "20:00", ["me and my boyfriend Lucan are off to a wedding on Saturday and I have NOTHING to wear 😭", "Classic problem. What's the dress code?",
                  "garden party, so probably floral", "Floral sounds perfect."]),
    (45, "20:30", ["so Lucan and I broke up in the summer 💔 but honestly I'm good, I'm seeing someone new, Ferris, he's a sound engineer and he makes me laugh so much",
                   "I'm glad you're doing well.", "me too tbh 😊", "That's lovely."]),
], new=["Ferris"], old=["Lucan"], extra_none=DEATH)

change("chg-210", "chatty", "Henrietta", "Bellamy", [
    (0, "19:00", ["we live in Bedminster in Bristol, the bit with all the murals, and our neighbour plays the trombone at 7am ugh 🎺", "That's an early concert.",
                  "every. single. day.", "Oof."]),
    (40, "19:30", ["guess where I'm writing from!! we're in Valencia these days ☀️ the flat has a balcony and oranges on the tree outside",
                   "That sounds wonderful.", "it is, no trombone either 😂", "A big bonus."]),
], new=["Valencia"], old=["Bedminster"])

change("chg-211", "chatty", "Garrick", "Corvin", [
    (0, "18:00", ["I'm on a carnivore diet at the moment, steak and eggs basically, my mates think I've lost it lol", "How are you feeling on it?",
                  "weirdly fine so far", "Interesting."]),
    (30, "18:25", ["ok carnivore isn't for me anymore, my gut was not happy 😬 I'm flexitarian instead, mostly veg and a bit of fish",
                   "Your gut will probably thank you."]),
], new=["flexitarian"], old=["carnivore"])

change("chg-212", "chatty", "Philomene", "Idony", [
    (0, "17:30", ["I go to Anytime Fitness on Mill Road, it's open all night which suits my weird hours 💪", "Do you go late?",
                  "like 11pm sometimes haha", "Quiet time to train."]),
    (28, "17:50", ["so I picked the council leisure centre over Anytime in the end, half the price and there's a pool 🏊",
                   "Good value!"]),
], new=["leisure centre"], old=["Anytime"])

change("chg-213", "chatty", "Evadne", "Lark", [
    (0, "15:00", ["my little Nissan Note is the best car ever, it's done 150k and it still starts in the frost 🚗", "That's a reliable car.",
                  "touch wood", "Ha."]),
    (35, "15:30", ["RIP to a legend 😢 the Nissan failed its MOT, so we went with a secondhand Citroën C3, it's bright red",
                   "Bright red is cheerful at least."]),
], new=[["Citroën", "Citroen", "C3"]], old=["Nissan"], extra_none=DEATH + ["MOT"])

change("chg-214", "chatty", "Marigold", "Maddox", [
    (0, "08:45", ["school run chaos this morning 🙃 my son Alfie is at Greenhill Infants and they want a costume by Friday", "What's the theme?",
                  "book characters", "Fun one."]),
    (50, "09:00", ["big day!! Alfie started at Marshbrook Juniors, new uniform and everything, he looked so grown up 🥹",
                   "What a milestone."]),
], new=["Marshbrook"], old=["Greenhill"])

change("chg-215", "chatty", "Dervla", "Perrin", [
    (0, "13:00", ["I do admin at a dental practice in Walthamstow, it's fine but the phones ring all day 📞", "Sounds hectic.",
                  "it really is", "I believe it."]),
    (40, "13:30", ["I'm driving for Bolt these days, way better hours, and I listen to podcasts all day 🚕",
                   "That sounds more relaxed."]),
], new=["Bolt"], old=["dental"])

change("chg-216", "chatty", "Caoimhe", "Sefton", [
    (0, "22:00", ["my all-time favourite film is Paddington 2, I will hear no arguments 🐻", "It has many fans.",
                  "it's perfect", "Fair enough."]),
    (30, "22:20", ["ok controversial but after last night my favourite film is Aftersun, I cried for an hour 😭",
                   "It's a very moving film."]),
], new=["Aftersun"], old=["Paddington"])

change("chg-217", "terse", "Ludo", "Tamsen", [
    (0, "11:00", ["laptop: dell xps.", "Ok.", "work + gaming", "Noted."]),
    (20, "11:10", ["dell died, got an asus zenbook.", "Hope the new one lasts."]),
], new=["Asus"], old=["Dell"], extra_none=DEATH)

change("chg-218", "terse", "Hartley", "Bellamy", [
    (0, "18:00", ["play hockey for Wexley Wanderers. 2nd XI.", "Good season?", "mid table", "Not bad."]),
    (30, "18:10", ["at Fenwick Hockey Club this season. 1st XI.", "Nice step up."]),
], new=["Fenwick"], old=["Wexley"])

change("chg-219", "terse", "Oonagh", "Corvin", [
    (0, "10:00", ["4 cans of diet coke a day.", "That's a lot of cans.", "yep", "Okay."]),
    (25, "10:20", ["sparkling water these days instead of coke.", "Good call."]),
], new=["sparkling"], old=["coke"])

change("chg-220", "terse", "Tiernan", "Idony", [
    (0, "21:00", ["broadband w/ talktalk.", "Any issues?", "drops every eve", "Annoying."]),
    (45, "21:10", ["on community fibre since march. rock solid.", "Good to hear."]),
], new=["Community Fibre"], old=["TalkTalk"])

change("chg-221", "terse", "Briony", "Lark", [
    (0, "20:00", ["girlfriend: Imelda. 2 yrs.", "Nice.", "yeah", "Good."]),
    (40, "20:10", ["with Thaddeus now, imelda and me split in may.", "Thanks for letting me know."]),
], new=["Thaddeus"], old=["Imelda"], extra_none=DEATH)

change("chg-222", "terse", "Ambrose", "Maddox", [
    (0, "07:00", ["postman. 31 yrs on the same round.", "That's dedication.", "bad knees tho", "I bet."]),
    (50, "07:30", ["done with the round. lollipop man at St Cuthbert's primary now.", "The kids are lucky."]),
], new=["lollipop"], old=["postman"], extra_none=["retir", "done with"])

change("chg-223", "terse", "Clemmie", "Perrin", [
    (0, "19:00", ["renting in salford. tiny flat.", "Ok.", "damp too", "Not ideal."]),
    (50, "19:20", ["got the keys to our place in levenshulme!!", "Congratulations!"]),
], new=["Levenshulme"], old=["Salford"])

change("chg-224", "terse", "Hugh", "Sefton", [
    (0, "09:00", ["on citalopram 20mg.", "Okay.", "6 months", "Noted."]),
    (30, "09:10", ["gp put me on mirtazapine. citalopram stopped.", "Hope it suits you."]),
], new=["mirtazapine"], old=["citalopram"])

change("chg-225", "typos", "Ruairidh", "Tamsen", [
    (0, "22:00", ["i work at the warehouse for Brindley Parcels, packing mostly", "Tiring work?", "my feet r dead lol", "Ouch."]),
    (30, "22:30", ["started at the royal infirmary as a ward clerk last wk, got a lanyard n evrything", "Well done!"]),
], new=["ward clerk"], old=["Brindley"])

change("chg-226", "typos", "Jessamy", "Bellamy", [
    (0, "17:00", ["my bike is a giant escape, bit heavy but it does the job", "Do you commute on it?", "evry day", "Nice."]),
    (35, "17:20", ["giant got nicked from outside work so im on a Ribble now, way lighter", "Sorry about the theft, glad you're riding again."]),
], new=["Ribble"], old=["Giant"], extra_none=["nicked", "stolen"])

change("chg-227", "typos", "Fenella", "Corvin", [
    (0, "07:00", ["i track my runs on strava, adicted to the kudos", "Ha, it's motivating.", "very", "Keep it up."]),
    (20, "07:15", ["dumped strava, im on runna now, the plans r better", "Hope you like it."]),
], new=["Runna"], old=["Strava"])

change("chg-228", "typos", "Crispin", "Idony", [
    (0, "19:00", ["honestly electric cars r a scam, batterys die in 5 yrs", "Opinions vary a lot on that.", "mine dont lol", "Fair."]),
    (45, "19:30", ["ok i was wrong abt electric cars, test drove one for a wk n im a total convert", "Interesting turnaround."]),
], new=["electric", ["convert", "won over", "fan", "like", "love", "positive", "enjoy", "keen"]], old=["electric", "scam"],
   extra_none=["wrong"])

change("chg-229", "typos", "Tallulah", "Lark", [
    (0, "21:00", ["my hairs blonde atm, bleached it in june", "How do you like it?", "love it tbh", "Nice."]),
    (30, "21:20", ["went jet black for haloween n kept it, blonde was too much upkeep", "Sounds striking."]),
], new=["black"], old=["blonde"])

change("chg-230", "typos", "Kenzie", "Maddox", [
    (0, "20:00", ["me n my partner Jory r doing up the spare room", "What colour are you going for?", "sage green", "Nice."]),
    (40, "20:30", ["jory moved out in feb, im with Anwen now, shes amazing", "I'm glad you're happy."]),
], new=["Anwen"], old=["Jory"], extra_none=DEATH)

change("chg-231", "typos", "Lowri", "Perrin", [
    (0, "15:30", ["my daughter Mabli is in year 2 with mrs okoro, she loves her", "That's lovely.", "shes so kind", "Great."]),
    (45, "15:50", ["mabli went up to year 3 in sept, shes got mr fenn now", "Hope she settles in well."]),
], new=["Mabli", ["year 3", "year three"]], old=["Mabli", ["year 2", "year two"]])

change("chg-232", "typos", "Kenrick", "Sefton", [
    (0, "05:00", ["my shifts at tesco r earlys, 6 till 2", "That's a dawn start!", "yep", "Okay."]),
    (30, "13:00", ["im on lates at tesco now 2 till 10, cant sleep in tho", "Hope you adjust soon."]),
], new=["late", "Tesco"], old=["early", "Tesco"])

change("chg-233", "formal", "Eleanora", "Tamsen", [
    (0, "10:00", ["I am Associate Dean for Research at Cranfield.", "That sounds demanding.",
                  "It is, particularly during grant season.", "I can imagine."]),
    (60, "10:30", ["I have been appointed Pro-Vice-Chancellor for Research and Enterprise.", "Congratulations on the appointment."]),
], new=[["Vice-Chancellor", "Vice Chancellor", "Pro-Vice", "PVC"]], old=["Associate Dean"], extra_none=["promot", "appoint"])

change("chg-234", "formal", "Bertrand", "Bellamy", [
    (0, "11:00", ["I am a district judge sitting at Taunton.", "A weighty role.", "It has its moments.", "Indeed."]),
    (60, "11:20", ["Having retired from the bench, I now chair the Quantock Hills Conservation Society.", "That sounds a fine use of your time."]),
], new=["Quantock"], old=["judge"], extra_none=["retir"])

change("chg-235", "formal", "Marguerita", "Corvin", [
    (0, "18:00", ["My husband and I reside in Zürich.", "Do you enjoy living there?", "Very much, though it is expensive.", "So I hear."]),
    (55, "18:30", ["We relocated to Montreal in the spring.", "I hope you are settling in."]),
], new=[["Montreal", "Montréal"]], old=[["Zürich", "Zurich"]])

change("chg-236", "formal", "Percival", "Idony", [
    (0, "10:00", ["Our electricity is supplied by British Gas.", "Are you satisfied with the service?", "Adequately.", "I see."]),
    (30, "10:15", ["We have transferred our supply to Ecotricity.", "I hope the change goes smoothly."]),
], new=["Ecotricity"], old=["British Gas"])

change("chg-237", "formal", "Georgiana", "Lark", [
    (0, "13:00", ["I adhere to the Atkins diet.", "How long have you followed it?", "Some eighteen months.", "That is a long time."]),
    (40, "13:30", ["On my consultant's advice I have adopted the DASH diet, which I find rather more agreeable.", "I am glad you find it agreeable."]),
], new=["DASH"], old=["Atkins"])

change("chg-238", "formal", "Reginald", "Maddox", [
    (0, "14:00", ["I am a member of the Hadleigh Bowls Club.", "Do you play competitively?", "In the county league.", "Impressive."]),
    (35, "14:20", ["I have resigned from Hadleigh and joined the Felixstowe Bowls Club.", "I hope you are made welcome."]),
], new=["Felixstowe"], old=["Hadleigh"])

change("chg-239", "formal", "Evangeline", "Perrin", [
    (0, "20:00", ["My preferred composer has always been Elgar.", "Which work in particular?", "The Enigma Variations.", "A fine choice."]),
    (45, "20:30", ["I have come to prefer Sibelius above all others since hearing the Fifth Symphony live.", "A powerful piece."]),
], new=["Sibelius"], old=["Elgar"])

change("chg-240", "formal", "Augusta", "Sefton", [
    (0, "16:00", ["My son Peregrine is a boarder at Stowbridge College.", "Does he enjoy boarding?", "Moderately.", "I see."]),
    (50, "16:30", ["Peregrine now attends Wellsford Grammar as a day pupil.", "I hope he is happy there."]),
], new=["Wellsford"], old=["Stowbridge"])

change("chg-241", "indirect", "Lachlan", "Tamsen", [
    (0, "18:00", ["Long day.", "What do you do for work?", "I fit kitchens for Halden Interiors.", "Physical job."]),
    (40, "18:30", ["Had a wild one on shift at the ambulance control room, a caller's parrot kept shouting the address over her.",
                   "That's quite a story.", "We got there in the end.", "Glad it worked out."]),
], new=["ambulance"], old=["Halden"])

change("chg-242", "indirect", "Morwenna", "Bellamy", [
    (0, "17:00", ["Took Biddy, our lurcher, to the beach and she ate half a crab while I was tying my shoe.", "Oh dear. Is she all right?",
                  "Completely fine, unlike my nerves.", "Ha."]),
    (45, "17:30", ["After Biddy died in June we got a collie, Sorrel, and yesterday Sorrel herded the neighbour's chickens into our shed.",
                   "Sorry for your loss, and what a character the new dog is."]),
], new=["Sorrel"], old=["Biddy"], extra_none=DEATH)

case("chg-243", "indirect", "Fionnuala", "Corvin", [
    (0, "19:00", ["Marking all evening.", "What do you teach?",
                  "I'm deputy head of the science department at Larchfield.", "Busy role."]),
    (50, "19:30", ["When Mrs Achterberg retired at Easter I took over the science department, so it's me fighting the broken fume cupboard now.",
                   "Good luck with the fume cupboard."]),
], active=[{"all": ["science", ["took over", "head", "lead", "run"]], "none": ["deputy"]}],
   retired=[{"all": ["deputy"], "none": CHGW + ["took over", "promot"]}])

change("chg-244", "indirect", "Beatrice", "Idony", [
    (0, "08:00", ["The buses in Hackney were a disaster again this morning.", "Do you live there?", "Yes, a flat in Hackney.", "Ah."]),
    (45, "08:30", ["The removal men got lost twice on the way to Whitstable, and now I can hear gulls from the bed.",
                   "Sounds like a peaceful view."]),
], new=["Whitstable"], old=["Hackney"])

change("chg-245", "indirect", "Caspar", "Lark", [
    (0, "12:00", ["My battery is at 4 percent again.", "What phone do you have?", "A Sony Xperia, it's ancient.", "That explains it."]),
    (30, "12:30", ["Dropped the Xperia in the canal feeding ducks, so I've ended up with a Honor Magic from the shop round the corner.",
                   "Poor ducks were probably startled."]),
], new=["Honor"], old=["Xperia"])

change("chg-246", "indirect", "Cathaoir", "Maddox", [
    (0, "22:00", ["Good night at the quiz.", "What's your go-to at the pub?", "Guinness, always.", "Classic."]),
    (40, "22:30", ["At my cousin's stag I was the only sober one, lucky I'd gone over to Lucky Saint months ago, because somebody had to carry the groom home.",
                   "Sounds like you were the hero."]),
], new=["Lucky Saint"], old=["Guinness"])

change("chg-247", "indirect", "Elspeth", "Perrin", [
    (0, "21:00", ["House is quiet this week.", "Is everyone away?", "My husband Roderick flies long-haul for Aer Lingus, he's in Boston.", "Ah."]),
    (60, "21:30", ["Roderick became a driving examiner in the autumn, and tonight he came home with stories about a learner who reversed into a hedge.",
                   "At least he's home every night now."]),
], new=["examiner"], old=["Aer Lingus"])

change("chg-248", "indirect", "Willa", "Sefton", [
    (0, "20:00", ["My niece wants me to go to the opera with her.", "Will you go?", "Opera bores me to tears.", "Fair enough."]),
    (45, "20:30", ["My niece dragged me to Tosca in the end and I cried buckets, so I've turned into an opera fan and booked Carmen already.",
                   "That's a wonderful surprise."]),
], new=["opera", ["fan", "love", "enjoy", "like"]], old=["opera", ["bore", "boring"]])

# ---------------------------------------------------------------- stop

stop("stop-201", "plain", "Wilfreda", "Tamsen", [
    (0, "20:00", ["I play darts in the pub league on Mondays.", "Are you any good?", "Middling.", "Ha."]),
    (30, "20:15", ["No more darts for me, my shoulder won't have it.", "Sorry about the shoulder."]),
], habit=["darts"])

stop("stop-202", "plain", "Osian", "Bellamy", [
    (0, "19:00", ["I read tarot cards for friends.", "Do they take it seriously?", "Some do.", "Interesting."]),
    (35, "19:20", ["That's finished. I gave my tarot deck away.", "Okay."]),
], habit=["tarot"])

stop("stop-203", "plain", "Primrose", "Corvin", [
    (0, "09:00", ["I subscribe to Private Eye.", "Do you read it cover to cover?", "Mostly.", "Nice."]),
    (40, "09:15", ["I've let my Private Eye subscription lapse.", "Understood."]),
], habit=["Private Eye"])

stop("stop-204", "chatty", "Jacinta", "Idony", [
    (0, "23:00", ["I'm obsessed with Candy Crush, like an hour every night in bed 😅 level 2,000-something", "That's a lot of levels.",
                  "it's a problem lol", "Ha."]),
    (30, "22:30", ["proud of myself, haven't touched Candy Crush since Easter!! deleted it and I'm sleeping so much better 😴",
                   "Well done!"]),
], habit=["Candy Crush"])

stop("stop-205", "chatty", "Rosalba", "Lark", [
    (0, "10:00", ["Saturday mornings I do paddleboarding at the lake with the girls, then bacon rolls 🥓", "Sounds like a great routine.",
                  "best part of the week", "Love that."]),
    (40, "10:30", ["paddleboarding is over for me 😂 fell in three times in October and I sold the board to my neighbour",
                   "Ha, the lake will miss you."]),
], habit=["paddleboard"])

stop("stop-206", "chatty", "Kimberleigh", "Maddox", [
    (0, "18:00", ["I get lash extensions every three weeks, the salon girl is basically my therapist 💅", "Ha, salons are like that.",
                  "she knows everything", "I bet."]),
    (35, "18:20", ["ok I'm done with lash extensions, my real ones were getting wrecked 😬 letting them recover",
                   "Sensible."]),
], habit=["lash"])

stop("stop-207", "terse", "Ulick", "Perrin", [
    (0, "06:00", ["cold showers every morning. 3 mins.", "Brave.", "wakes me up", "I bet."]),
    (30, "06:10", ["cold showers: binned that.", "Fair."]),
], habit=["cold shower"])

stop("stop-208", "terse", "Greer", "Sefton", [
    (0, "21:00", ["fantasy football. 3 leagues.", "Busy.", "yep", "Ha."]),
    (35, "21:10", ["fantasy football: deleted the app, not doing it this season.", "Okay."]),
], habit=["fantasy"])

stop("stop-209", "terse", "Bronte", "Tamsen", [
    (0, "13:00", ["sunbed twice a week.", "Okay.", "winter glow", "Noted."]),
    (40, "13:15", ["sunbeds stopped. mole scare.", "Glad you got it checked."]),
], habit=["sunbed"])

stop("stop-210", "typos", "Callan", "Bellamy", [
    (0, "19:00", ["i play magic the gathering evry week at the game shop in town", "What deck do you play?", "green stompy lol", "Ha."]),
    (40, "19:30", ["sold all my magic cards, thats me out of it for good", "Okay, fair enough."]),
], habit=["magic"])

stop("stop-211", "typos", "Delyth", "Corvin", [
    (0, "16:00", ["i chew chewing gum all day, like 10 pieces", "That's a lot.", "jaw of steel", "Ha."]),
    (30, "16:20", ["no more chewing gum for me, dentist said its wrecking my jaw", "Good to listen to the dentist."]),
], habit=["chewing gum"])

stop("stop-212", "typos", "Yorick", "Idony", [
    (0, "20:00", ["i paint warhammer armys evry night after work", "Which army?", "space marines", "Classic."]),
    (45, "20:20", ["gave my warhammer armys away to my nephew, no time with the new baby", "He must be thrilled."]),
], habit=["warhammer"])

stop("stop-213", "formal", "Algernon", "Lark", [
    (0, "15:00", ["I take snuff after luncheon each day.", "An old custom.", "My grandfather's habit as well.", "Indeed."]),
    (40, "15:20", ["I have relinquished snuff entirely on my physician's advice.", "A sensible decision."]),
], habit=["snuff"])

stop("stop-214", "formal", "Rowena", "Maddox", [
    (0, "09:00", ["I donate platelets every fortnight at the Bristol centre.", "That is generous.", "It is a small thing.", "Still."]),
    (40, "09:20", ["I am no longer permitted to donate platelets, following my diagnosis.", "I am sorry to hear that."]),
], habit=["platelet"])

stop("stop-215", "formal", "Hermione", "Perrin", [
    (0, "11:00", ["I write a weekly column for the Wensleydale Gazette.", "On what subjects?", "Local history, chiefly.", "Fascinating."]),
    (45, "11:20", ["I have ceased writing my weekly column for the Wensleydale Gazette.", "I hope your readers will find you elsewhere."]),
], habit=["Gazette"])

stop("stop-216", "indirect", "Torquil", "Sefton", [
    (0, "17:00", ["Busy weekend.", "What did you get up to?",
                  "Sea kayaking with the Solent club on Saturday, and we spotted a seal.", "Lovely."]),
    (40, "17:30", ["Sold the kayak to a lad from Lymington, which paid for our trip to see my sister.", "Hope the trip was good."]),
], habit=["kayak"])

stop("stop-217", "indirect", "Margery", "Tamsen", [
    (0, "14:00", ["Shopping for twelve again.", "Big family lunch?", "Every Sunday I cook a roast for the whole family.", "That's lovely."]),
    (45, "14:30", ["Mum's eighty now and the family lunches have moved to my brother's, I haven't cooked a roast since spring.",
                   "A break must be nice."]),
], habit=["roast"])

stop("stop-218", "indirect", "Anstice", "Bellamy", [
    (0, "22:00", ["Can't sleep.", "How do you usually unwind?", "A sudoku book in bed every night.", "Calming."]),
    (30, "22:30", ["Started reading novels in bed, no more sudoku, the numbers kept buzzing in my head.", "Novels are a nice change."]),
], habit=["sudoku"])


def build():
    out = []
    base = datetime(2023, 1, 3)
    for k, c in enumerate(CASES):
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
