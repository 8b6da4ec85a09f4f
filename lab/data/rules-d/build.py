#!/usr/bin/env python3
"""Hand-written source of the fourth rules set (cases.jsonl). Standard library only.

Usage: python3 build.py   (writes cases.jsonl next to this file)

A case is written as: id, style, partner, agent, its sessions and its expectations.
A session is (gap_days, "HH:MM", [turn texts]); the partner speaks first and the speakers
alternate. The first session of case k falls on 2023-01-03 + 7*k days; gap_days of a later
session counts from the previous session's date.
Matchers: a list is {"all": list}; stop(habit) and change(new, old) build the class matchers.
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
case("same-77", "plain", "Aurelija", "Mira", [
    (0, "19:10", ["I work as an optician in Tartu.", "Thanks for telling me. How long have you done that?",
                  "About six years.", "Noted."]),
    (9, "18:40", ["I work as an optician in Tartu.", "Got it."])],
    once=[["optician", "Tartu"]])
case("same-78", "plain", "Bohdan", "Mira", [
    (0, "20:05", ["My daughter Lesya is nine years old.", "Lovely age."]),
    (12, "21:00", ["What should I cook tonight?", "Something quick, maybe a soup?",
                   "Lesya, my daughter, is 9.", "Thanks, I'll keep that in mind."])],
    once=[["Lesya", ["nine", "9"]]])
case("same-79", "plain", "Catrin", "Quill", [
    (0, "08:30", ["I have a tortoise called Bramble.", "What a sweet name."]),
    (6, "09:15", ["It is raining again in Swansea.", "Stay dry!"]),
    (10, "08:50", ["I have a tortoise called Bramble.", "Noted."])],
    once=[["Bramble", "tortoise"]])
case("same-80", "plain", "Dineo", "Quill", [
    (0, "17:45", ["I play the marimba every Saturday.", "That sounds like fun."]),
    (15, "18:20", ["Every Saturday I play marimba.", "Sounds great."])],
    once=[["marimba", "Saturday"]])
case("same-81", "chatty", "Eero", "Nell", [
    (0, "21:30", ["Hey!! ok so the weekend was wild 😅 my sister came over with her three kids and the "
                  "flat is still recovering. Anyway, random fact for you: I'm allergic to buckwheat, "
                  "found out the hard way at a pancake place in Oulu lol",
                  "Oof, that sounds like a rough way to learn it. Glad you're okay!"]),
    (8, "22:10", ["Back again 🙃 work was a mess today, the printer jammed four times. Oh and before I "
                  "forget, I'm allergic to buckwheat, in case recipes come up. Anyway how are you",
                  "I'm well, thanks! Hope tomorrow's printer behaves."])],
    once=[["buckwheat", "allerg"]])
case("same-82", "chatty", "Fenna", "Nell", [
    (0, "19:00", ["Sooo it's our anniversary next week 🥰 my partner Joris and I have been together "
                  "eleven years, which is wild because I still remember him spilling coffee on my shoes "
                  "on the first date haha", "That's a great story! Any plans for the day?",
                  "Dinner somewhere by the canal I think, nothing huge", "Sounds perfect."]),
    (14, "20:30", ["The dinner was lovely btw!! Joris and me, 11 years together now, can you believe it 😄 "
                   "the waiter even brought a candle", "So glad it went well!"])],
    once=[["Joris", ["eleven", "11"]]])
case("same-83", "chatty", "Gaukhar", "Tavi", [
    (0, "18:10", ["Long day!! 🏐 I coach the under-15 girls' volleyball team at Almaly Sports Club, and "
                  "today we drilled serves for two hours straight, my voice is gone lol",
                  "Ha, rest that voice! Tea with honey helps."]),
    (5, "12:30", ["Random q, is it normal for a cat to sleep 16 hours a day?? mine is a champion napper 😴",
                  "Quite normal for cats, actually."]),
    (9, "19:40", ["Tournament this weekend!! I coach the under-15 girls' volleyball team at Almaly Sports "
                  "Club, in case I never mentioned it, and I'm more nervous than the girls 😬",
                  "Good luck to all of you!"])],
    once=[["volleyball", "Almaly"]])
case("same-84", "chatty", "Henare", "Tavi", [
    (0, "16:20", ["Autumn is my fave season 🍎 I brew my own cider from the apples in our orchard in "
                  "Motueka, the shed smells amazing right now", "That sounds delicious."]),
    (20, "17:05", ["Mate, first bottles are ready!! 🍻 the cider I make comes from our own orchard apples "
                   "in Motueka, so it tastes like home. My cousins are coming over Saturday to try it",
                   "Enjoy the tasting!"])],
    once=[["cider", "Motueka"]])
case("same-85", "terse", "Itzel", "Bram", [
    (0, "07:50", ["rent 950/month, flat in Puebla.", "ok."]),
    (11, "08:05", ["rent 950/month, flat in Puebla.", "noted."])],
    once=[["950", "rent"]])
case("same-86", "terse", "Jovana", "Bram", [
    (0, "13:10", ["drive a blue dacia logan.", "ok."]),
    (7, "13:40", ["weather ok today.", "good."]),
    (10, "14:00", ["car's a dacia logan, blue.", "got it."])],
    once=[["Dacia", "blue"]])
case("same-87", "terse", "Kagiso", "Lio", [
    (0, "06:40", ["night shift at the Tembisa clinic, mon-thu.", "ok, noted."]),
    (9, "06:55", ["night shift at the Tembisa clinic, mon-thu.", "ok."])],
    once=[["clinic", "Tembisa"]])
case("same-88", "terse", "Liesel", "Lio", [
    (0, "22:00", ["cat's name is Fenchel. 4 yrs old.", "cute."]),
    (6, "21:30", ["tired. long week.", "rest up."]),
    (13, "22:15", ["Fenchel, my cat, four years.", "ok."])],
    once=[["Fenchel", ["four", "4"]]])
case("same-89", "typos", "Mehmet", "Otto", [
    (0, "11:00", ["i volunter at the repair cafe in Izmir on sundays", "thats a nice thing to do"]),
    (12, "10:45", ["i volunter at the repair cafe in Izmir on sundays", "noted"])],
    once=[["repair", "Izmir"]])
case("same-90", "typos", "Nanami", "Otto", [
    (0, "07:20", ["my comute is 45 mins by train to Sendai", "long ride! do you read on the way?",
                  "mostly sleep lol", "fair enough"]),
    (16, "07:35", ["takes me 45 minuts to get to Sendai on the train", "ok"])],
    once=[["Sendai", ["45", "forty-five", "forty five"]]])
case("same-91", "typos", "Olek", "Suki", [
    (0, "20:40", ["my grandad Zbyszek is 93 and still lives on his own in Lublin", "wow, good for him"]),
    (8, "19:55", ["my grandad Zbyszek is 93 and still lives on his own in Lublin", "ok"])],
    once=[["Zbyszek", ["93", "ninety-three", "ninety three"]]])
case("same-92", "typos", "Parisa", "Suki", [
    (0, "18:00", ["i do archery at the club in shiraz twice a week", "cool sport"]),
    (19, "18:30", ["twice a week im at the shiraz archery club", "nice"])],
    once=[["archery", ["twice", "two times", "2 times", "2x"]]])
case("same-93", "formal", "Quilla", "Mira", [
    (0, "10:00", ["Good morning. I am employed as a hydrologist at the Arequipa regional water authority, "
                  "where I monitor river levels during the rainy season.",
                  "Thank you for the introduction."]),
    (10, "10:30", ["For your records, I am employed as a hydrologist at the Arequipa regional water "
                   "authority. I would also appreciate a short summary of the week ahead.",
                   "Of course."])],
    once=[["hydrolog", "Arequipa"]])
case("same-94", "formal", "Rustam", "Mira", [
    (0, "15:00", ["My wife, Dilfuza, and I have three children, all of whom attend the same school in "
                  "Samarkand.", "Thank you for sharing that."]),
    (13, "15:20", ["Dilfuza and I are the parents of three.", "Understood."])],
    once=[["Dilfuza", ["three", "3"]]])
case("same-95", "formal", "Saule", "Quill", [
    (0, "17:00", ["I am a member of the Astana Falconry Club, which flies its birds on the first Monday of "
                  "each month.", "That must be a pleasant circle."]),
    (7, "17:30", ["The weather in the capital has been unusually mild this week.", "A welcome change."]),
    (14, "17:10", ["I am a member of the Astana Falconry Club, which flies its birds on the first Monday of "
                   "each month.", "Noted, thank you."])],
    once=[["falconr", "Astana"]])
case("same-96", "formal", "Tavita", "Quill", [
    (0, "09:00", ["I serve as a deacon at the Congregational church in Apia.", "Thank you for telling me."]),
    (18, "09:30", ["At the Congregational church in Apia, I am one of the deacons.", "Understood."])],
    once=[["deacon", "Apia"]])
case("same-97", "indirect", "Ulla", "Tavi", [
    (0, "19:00", ["Long day, my arms ache.", "What do you do for work?",
                  "I'm a glassblower at a studio in Kosta.", "That explains the arms!"]),
    (11, "20:15", ["A tourist dropped a vase today and blamed the floor. I'm a glassblower at a studio in "
                   "Kosta, so I've heard every excuse.", "Ha, that's a new one."])],
    once=[["glassblow", "Kosta"]])
case("same-98", "indirect", "Vusi", "Tavi", [
    (0, "18:00", ["Took my son Sipho to his first cricket match; he's seven, and he lasted until tea.",
                  "Not bad for a first match!"]),
    (9, "17:30", ["Sipho wanted to bowl in the garden all afternoon. He's 7, so he mostly bowls at the "
                  "dog.", "Sounds like a future bowler."])],
    once=[["Sipho", ["seven", "7"]]])
case("same-99", "indirect", "Wairimu", "Bram", [
    (0, "06:30", ["The rain finally came, which is good news because I grow tea on two acres near "
                  "Kericho.", "That is good news."]),
    (15, "07:00", ["A buyer came by to taste the first flush. I grow tea on two acres near Kericho, and "
                   "he wants all of it.", "Congratulations!"])],
    once=[["Kericho", "acre"]])
case("same-100", "indirect", "Xochitl", "Bram", [
    (0, "21:00", ["We played a fandango until three in the morning!", "What do you play?",
                  "I play the jarana in a son jarocho group.", "Sounds like a great night."]),
    (12, "20:40", ["The fandango was rained out, but in my son jarocho group I play jarana, so we just "
                   "moved it indoors.", "Good thinking."])],
    once=[["jarana", "jarocho"]])

# ---------------------------------------------------------------- addition
case("add-77", "plain", "Yosef", "Lio", [
    (0, "18:00", ["I have a dog, a border collie called Pepper.", "Collies are clever dogs."]),
    (20, "18:30", ["I adopted another dog, a whippet named Tzipi.", "Congratulations!"])],
    active=[["Pepper"], ["Tzipi"]])
case("add-78", "plain", "Zlata", "Lio", [
    (0, "12:00", ["I speak Slovene.", "Nice."]),
    (10, "12:20", ["I also speak Croatian.", "Good to know."])],
    active=[["Slovene"], ["Croatian"]])
case("add-79", "plain", "Anuk", "Otto", [
    (0, "08:00", ["I have a Trek road bike.", "Great bike for long rides."]),
    (25, "08:40", ["I bought a second bike, a Bianchi for gravel.", "Fun!"])],
    active=[["Trek"], ["Bianchi"]])
case("add-80", "plain", "Berit", "Otto", [
    (0, "20:00", ["My brother Håkon lives in Ålesund.", "Thanks for telling me."]),
    (14, "19:30", ["My other brother, Eivind, lives in Trondheim.", "Noted."])],
    active=[[["Håkon", "Hakon"]], ["Eivind"]])
case("add-81", "chatty", "Cosmin", "Suki", [
    (0, "22:00", ["Movie night again 🍿 I pay for the Criterion Channel and honestly it's the best money "
                  "I spend all month, tonight it's an old Kurosawa", "Enjoy the film!"]),
    (9, "21:45", ["Okay so I just signed up for CuriosityStream lol, documentaries about octopuses and "
                  "volcanoes all weekend 🌋 my girlfriend is thrilled (she is not)", "Ha, have fun!"])],
    active=[["Criterion"], [["CuriosityStream", "Curiosity Stream"]]])
case("add-82", "chatty", "Dalia", "Suki", [
    (0, "19:20", ["Cosy evening 🧶 I knit in the evenings, sweaters mostly, and I'm halfway through a "
                  "green one for my dad", "That sounds cosy!"]),
    (12, "20:00", ["Guess what, I started doing crochet too!! a friend taught me granny squares and now "
                   "the sofa is covered in yarn 😂", "Sounds like a happy mess."])],
    active=[["knit"], ["crochet"]])
case("add-83", "chatty", "Fotini", "Mira", [
    (0, "17:30", ["Sun is out in Thessaloniki ☀️ we have a lemon tree on the balcony and it finally has "
                  "flowers, the whole flat smells like it", "Lovely!"]),
    (16, "18:10", ["Garden update 🌱 we planted a fig tree on the balcony as well!! tiny for now, but my "
                   "mum says it'll be fine", "Fingers crossed it thrives."])],
    active=[["lemon"], ["fig"]])
case("add-84", "chatty", "Gorka", "Mira", [
    (0, "23:30", ["Just got home, my feet are dead 😵 I'm a lighting technician at the Arriaga theatre in "
                  "Bilbao, and tonight's opera ran for four hours", "Rest up!"]),
    (13, "23:50", ["Picked up a second gig!! doing lights for events at the Guggenheim 😎 so Arriaga by "
                   "night and the museum on weekends, money's good", "Congrats on the new gig!"])],
    active=[["Arriaga"], ["Guggenheim"]])
case("add-85", "terse", "Hinemoa", "Quill", [
    (0, "14:00", ["one kid, Tama, 6.", "ok."]),
    (40, "14:30", ["new baby girl, Kahurangi. born tues.", "congratulations!"])],
    active=[["Tama"], ["Kahurangi"]])
case("add-86", "terse", "Ilkka", "Quill", [
    (0, "19:00", ["sauna club member, Kotiharju.", "ok."]),
    (11, "19:20", ["plus Arla sauna now, weds.", "ok."])],
    active=[["Kotiharju"], ["Arla"]])
case("add-87", "terse", "Jiho", "Tavi", [
    (0, "09:40", ["allergic to latex.", "noted."]),
    (17, "10:00", ["and to ragweed, found out at the clinic.", "ok."])],
    active=[["latex"], ["ragweed"]])
case("add-88", "terse", "Kerttu", "Tavi", [
    (0, "20:10", ["brass band in Lahti, cornet.", "nice."]),
    (21, "20:30", ["started a ska band, Pikkupossut, as well.", "cool."])],
    active=[["Lahti"], ["Pikkupossu"]])
case("add-89", "typos", "Lwazi", "Bram", [
    (0, "18:30", ["i got a cat called Mpho, hes ginger", "aw"]),
    (15, "18:50", ["we got anothr kitten, her name is Zanele", "congrats"])],
    active=[["Mpho"], ["Zanele"]])
case("add-90", "typos", "Mireia", "Bram", [
    (0, "16:00", ["i do a masters in urban planning at the UPC in barcelona", "interesting field"]),
    (22, "16:30", ["i also signed up for a evening course in Arabic", "good luck"])],
    active=[["planning"], ["Arabic"]])
case("add-91", "typos", "Nalani", "Lio", [
    (0, "06:00", ["i paddle outrigger canoe with the Hui Nalu club", "great workout"]),
    (18, "06:20", ["started doing hula with a halau in Kaimuki on top of paddling", "beautiful"])],
    active=[["outrigger"], ["hula"]])
case("add-92", "typos", "Pema", "Lio", [
    (0, "21:00", ["my betta fish is called Lhamo", "pretty fish"]),
    (9, "21:15", ["got a snail for teh tank, named Dawa", "lol cute"])],
    active=[["Lhamo"], ["Dawa"]])
case("add-93", "formal", "Rangi", "Otto", [
    (0, "10:00", ["I am a trustee of the Hokitika Heritage Trust.", "Thank you for letting me know."]),
    (30, "10:20", ["In addition, I have accepted a seat on the board of the Greymouth Surf Lifesaving "
                   "Club.", "Congratulations on the appointment."])],
    active=[["Hokitika"], ["Greymouth"]])
case("add-94", "formal", "Sakura", "Otto", [
    (0, "11:00", ["I own a Honda Super Cub, which I use for errands around Kanazawa.", "A reliable machine."]),
    (26, "11:30", ["Besides the Super Cub, I now own a Suzuki Jimny for longer journeys into the "
                   "mountains.", "That should be useful in winter."])],
    active=[["Cub"], ["Jimny"]])
case("add-95", "formal", "Teodora", "Suki", [
    (0, "09:00", ["I attend the Orthodox parish of St Nedelya in Sofia.", "Thank you for sharing."]),
    (19, "09:30", ["Additionally, I now attend a monthly Taizé prayer evening held by an ecumenical "
                   "group in Sofia.", "That sounds peaceful."])],
    active=[["Nedelya"], [["Taizé", "Taize"]]])
case("add-96", "formal", "Ugne", "Suki", [
    (0, "20:00", ["My daughter Austėja studies medicine in Kaunas.", "That is a demanding course."]),
    (24, "20:20", ["Our younger daughter, Gabija, has just begun her law studies in Vilnius.",
                   "Congratulations to her."])],
    active=[[["Austėja", "Austeja"]], ["Gabija"]])
case("add-97", "indirect", "Valdis", "Mira", [
    (0, "18:00", ["My back hurts from the garden.", "What are you growing this year?",
                  "I grow rhubarb along the fence, enough for half the street.", "Generous!"]),
    (12, "18:30", ["Spent Sunday digging a new bed for asparagus, and the neighbour's dog kept stealing my "
                   "gloves.", "Ha, a helpful dog."])],
    active=[["rhubarb"], ["asparagus"]])
case("add-98", "indirect", "Wanza", "Mira", [
    (0, "19:00", ["Family dinner tonight.", "Do you have siblings?",
                  "A sister I'm close with, Mumbua; she's an accountant in Mombasa.", "Nice."]),
    (10, "19:30", ["My other sister, Kanini, called from Nakuru, and we laughed for an hour about our "
                   "grandmother's goat.", "Sounds like a good call."])],
    active=[["Mumbua"], ["Kanini"]])
case("add-99", "indirect", "Yiannis", "Quill", [
    (0, "23:00", ["Busy night at the taverna in Chania; I play bouzouki there on Fridays and the tourists "
                  "wanted Zorba six times.", "Six times!"]),
    (20, "22:40", ["My uncle gave me his baglamas, so I've been learning that one too; my fingers hurt.",
                   "It gets easier."])],
    active=[["bouzouki"], ["baglama"]])
case("add-100", "indirect", "Zarina", "Quill", [
    (0, "10:00", ["Weekends are busy.", "What do you do on Sundays?",
                  "I run with the Tashkent Runners every Sunday morning.", "A good start to the week."]),
    (14, "10:20", ["Signed up for one more club after the Sunday run: a cycling group, the Chorsu Riders. "
                   "My legs will hate me.", "They'll get used to it."])],
    active=[["Tashkent"], ["Chorsu"]])

# ---------------------------------------------------------------- change
change("chg-77", "plain", "Arnaud", "Tavi", [
    (0, "18:00", ["I drive a Renault Clio.", "Practical car."]),
    (30, "18:20", ["I sold my Clio and bought a Toyota Yaris.", "Enjoy the new car."])],
    new=["Yaris"], old=["Clio"])
change("chg-78", "plain", "Bettina", "Tavi", [
    (0, "12:00", ["I work as a bank teller in Linz.", "Thanks."]),
    (35, "12:30", ["I switched jobs from bank teller to insurance broker.", "Good luck in the new role."])],
    new=["insurance"], old=["teller"])
change("chg-79", "plain", "Chayton", "Bram", [
    (0, "20:00", ["I live in Billings, Montana.", "Noted."]),
    (40, "20:30", ["I moved to Spokane last month.", "Hope you settle in well."])],
    new=["Spokane"], old=["Billings"])
change("chg-80", "plain", "Dorota", "Bram", [
    (0, "07:00", ["I drink yerba mate every morning.", "A good wake-up drink."]),
    (21, "07:20", ["These days I start the morning with ginger tea.", "Nice."])],
    new=["ginger"], old=["yerba"])
change("chg-81", "chatty", "Eilidh", "Lio", [
    (0, "21:00", ["Ugh the internet dropped three times during my call 😤 my broadband's with Virgin Media "
                  "and it's been flaky all week", "That's frustrating!"]),
    (25, "20:30", ["Big news lol: left Virgin Media, now with Hyperoptic 🎉 speed test says 900, I nearly "
                   "cried", "Ha, enjoy the speed!"])],
    new=["Hyperoptic"], old=["Virgin"])
change("chg-82", "chatty", "Fumiko", "Lio", [
    (0, "19:00", ["Leg day done 🏋️ I go to the Konami Sports gym near Umeda, it's packed after work but "
                  "the sauna is worth it", "Well done!"]),
    (28, "19:30", ["Switched gyms!! I'm at Gold's Gym in Namba now 💪 way bigger, and my friend Aya trains "
                   "there too", "Have fun there!"])],
    new=["Gold"], old=["Konami"])
change("chg-83", "chatty", "Gulshan", "Otto", [
    (0, "08:15", ["Mornings are chaos 😅 our son Rehaan is at Little Acorns preschool and he refuses to "
                  "wear socks, every single day", "Ha, classic!"]),
    (60, "08:00", ["Rehaan's at Greenfield Primary these days, big boy now!! he even puts his own socks on "
                   "🥹", "What a milestone!"])],
    new=["Greenfield"], old=["Acorns"])
change("chg-84", "chatty", "Hallvard", "Otto", [
    (0, "23:00", ["Gig was LOUD 🤘 I play drums in a punk band called Råtne Epler and my ears are still "
                  "ringing", "Rest those ears!"]),
    (45, "22:00", ["Life update: no longer drumming for Råtne Epler, now I play drums in a folk trio, "
                   "Fjellvind 🎻 quieter, my neighbours are thrilled", "Ha, good for the neighbours."])],
    new=["Fjellvind"], old=["Epler"])
change("chg-85", "terse", "Ikaika", "Suki", [
    (0, "13:00", ["phone's a galaxy s21.", "ok."]),
    (30, "13:20", ["swapped the galaxy for a oneplus 12.", "ok."])],
    new=["OnePlus"], old=["Galaxy"])
change("chg-86", "terse", "Jaroslav", "Suki", [
    (0, "12:00", ["on keto.", "ok."]),
    (26, "12:10", ["replaced keto with mediterranean diet.", "noted."])],
    new=["Mediterranean"], old=["keto"])
change("chg-87", "terse", "Kalinda", "Mira", [
    (0, "17:00", ["work: barkeep at the Royal Hotel, Broome.", "ok."]),
    (33, "17:30", ["left the Royal. now managing a pearl farm.", "nice."])],
    new=["pearl"], old=["Royal"])
change("chg-88", "terse", "Lorcan", "Mira", [
    (0, "21:00", ["train w/ Naomh Mairtin GAA, tues.", "ok."]),
    (29, "21:30", ["moved to Clann na Gael. training thurs.", "ok."])],
    new=["Clann"], old=["Mairtin"])
change("chg-89", "typos", "Odette", "Quill", [
    (0, "22:00", ["i live with my parents in Lyon still", "ok"]),
    (40, "22:30", ["finaly got my own studio in Villeurbanne!! signed the lease last week", "congrats!"])],
    new=["Villeurbanne"], old=["parents", "Lyon"])
change("chg-90", "typos", "Pradeep", "Quill", [
    (0, "09:00", ["i ride a hero splendor bike to work", "ok"]),
    (35, "09:20", ["sold the splendor n bought a ather electric scooter", "nice upgrade"])],
    new=["Ather"], old=["Splendor"])
change("chg-91", "typos", "Renske", "Tavi", [
    (0, "14:00", ["i bank with rabobank", "ok"]),
    (24, "14:30", ["changed bank, its bunq now, rabobank app was to slow", "noted"])],
    new=["bunq"], old=["Rabobank"])
change("chg-92", "typos", "Sefa", "Tavi", [
    (0, "16:00", ["i teach maths at Achimota school", "respect"]),
    (50, "16:30", ["nowadays im doing data analysis at MTN, no more classroom", "cool"])],
    new=["MTN"], old=["Achimota"])
change("chg-93", "formal", "Tomoko", "Bram", [
    (0, "10:00", ["I reside in Fukuoka, in the Hakata ward.", "Thank you."]),
    (45, "10:30", ["I have relocated to Sapporo, owing to my husband's transfer.", "I hope the move went smoothly."])],
    new=["Sapporo"], old=["Fukuoka"])
change("chg-94", "formal", "Uzma", "Bram", [
    (0, "09:00", ["I am employed as a junior solicitor at Harcourt & Vale in Bradford.", "Thank you."]),
    (60, "09:30", ["I resigned from Harcourt & Vale; I am now an associate at Pennine Legal.",
                   "Congratulations."])],
    new=["Pennine"], old=["Harcourt"])
change("chg-95", "formal", "Vesna", "Lio", [
    (0, "19:00", ["Our house is heated by a gas boiler in the cellar.", "Understood."]),
    (40, "19:30", ["We have replaced the gas boiler with a wood pellet stove.", "That should be cosy."])],
    new=["pellet"], old=["boiler"])
change("chg-96", "formal", "Wiebke", "Lio", [
    (0, "11:00", ["I am a member of the Lutheran congregation of St Petri in Lübeck.", "Thank you."]),
    (50, "11:30", ["I now worship with the Quaker meeting in Lübeck instead of St Petri.",
                   "Thank you for the update."])],
    new=["Quaker"], old=["Petri"])
change("chg-97", "indirect", "Yaw", "Otto", [
    (0, "18:00", ["Traffic in Accra was terrible.", "What do you drive?",
                  "A Nissan Almera my uncle gave me.", "A sturdy car."]),
    (30, "18:30", ["Drove to Cape Coast in the Kia Picanto I traded the Almera for, and it sipped fuel the "
                   "whole way.", "Nice trip!"])],
    new=["Picanto"], old=["Almera"])
change("chg-98", "indirect", "Zofia", "Otto", [
    (0, "17:00", ["I do my groceries at Biedronka on the corner.", "Convenient."]),
    (20, "17:30", ["Funny thing at Lidl yesterday: since I shop there now instead of Biedronka, the "
                   "cashier already knows my name.", "Ha, that's nice."])],
    new=["Lidl"], old=["Biedronka"])
change("chg-99", "indirect", "Alibek", "Suki", [
    (0, "20:00", ["Exams next week.", "Where do you study?",
                  "Second year of mining at Satbayev University.", "Good luck with the exams."]),
    (70, "20:30", ["Since I transferred to Nazarbayev University, my bus ride is twice as long, but the "
                   "library is open all night.", "A fair trade."])],
    new=["Nazarbayev"], old=["Satbayev"])
change("chg-100", "indirect", "Brígida", "Suki", [
    (0, "21:00", ["I listen to everything on YouTube Music, mostly fado.", "Lovely."]),
    (25, "21:30", ["My nephew set things up so I've gone from YouTube Music to Qobuz, and now the old "
                   "Amália records sound new.", "Enjoy them."])],
    new=["Qobuz"], old=["YouTube"])

# ---------------------------------------------------------------- stop
stop("stop-77", "plain", "Cyprian", "Mira", [
    (0, "19:00", ["I play squash every Wednesday.", "Good exercise."]),
    (25, "19:30", ["I stopped playing squash.", "Okay."])],
    habit=["squash"])
stop("stop-78", "plain", "Dagrun", "Mira", [
    (0, "10:00", ["I buy a scratchcard every Saturday.", "Okay."]),
    (30, "10:30", ["I gave up scratchcards.", "Good for you."])],
    habit=[["scratchcard", "scratch card", "scratch-card"]])
stop("stop-79", "plain", "Eldar", "Quill", [
    (0, "20:00", ["I subscribe to Paramount+.", "Noted."]),
    (18, "20:30", ["I cancelled Paramount+.", "Noted."])],
    habit=["Paramount"])
stop("stop-80", "plain", "Florin", "Quill", [
    (0, "22:00", ["I take ibuprofen every night for my back.", "Take care of your back."]),
    (24, "22:30", ["I don't take ibuprofen any more.", "Glad to hear it."])],
    habit=["ibuprofen"])
stop("stop-81", "chatty", "Grainne", "Tavi", [
    (0, "07:30", ["Morning!! ☕ I'm hooked on Wordle, I play it every morning with my tea and text my "
                  "score to my sister in Dundalk", "Ha, a nice ritual."]),
    (20, "08:00", ["Ok confession time: I've quit Wordle for good 😂 lost a 200-day streak on a Tuesday "
                   "and just couldn't face it", "That's a painful loss!"])],
    habit=["Wordle"])
stop("stop-82", "chatty", "Hugo", "Tavi", [
    (0, "21:00", ["Lazy night again lol 🍕 I order Deliveroo like four nights a week, the rider knows my "
                  "dog by name", "Ha!"]),
    (30, "20:45", ["Proud of myself!! deleted Deliveroo from my phone and I've cooked every night this week "
                   "🍳 lentil soup was a triumph", "Well done!"])],
    habit=["Deliveroo"])
stop("stop-83", "chatty", "Ilaria", "Bram", [
    (0, "18:00", ["Sweaty and happy 🎾 I play padel with my cousins every Thursday evening in Verona, "
                  "and I won for once!", "Congrats!"]),
    (35, "18:30", ["Bad news 😩 my knee is wrecked so I've given up padel, doctor's orders. My cousins "
                   "are sad", "Sorry to hear that, heal well."])],
    habit=["padel"])
stop("stop-84", "chatty", "Jasna", "Bram", [
    (0, "22:00", ["Dinner at my parents' 🍽️ I have a glass of rakija every night after dinner, my dad "
                  "makes it himself in Split", "Sounds like a tradition."]),
    (28, "21:30", ["Small win 🙌 cut out the rakija completely, three weeks now, and I sleep way better",
                   "That's great!"])],
    habit=["rakija"])
stop("stop-85", "terse", "Kobina", "Lio", [
    (0, "17:00", ["sunday league, Kasoa Rovers, striker.", "ok."]),
    (40, "17:30", ["done with sunday league. knees.", "ok."])],
    habit=["league"])
stop("stop-86", "terse", "Ludmila", "Lio", [
    (0, "23:00", ["hookah w/ friends, fridays.", "ok."]),
    (21, "23:10", ["no more hookah.", "ok."])],
    habit=[["hookah", "shisha"]])
stop("stop-87", "terse", "Manon", "Otto", [
    (0, "20:00", ["canal+ subscription.", "ok."]),
    (19, "20:10", ["ended the canal+ sub.", "ok."])],
    habit=["Canal"])
stop("stop-88", "terse", "Nazira", "Otto", [
    (0, "12:00", ["chew nasvay daily.", "ok."]),
    (60, "12:10", ["kicked the nasvay. 2 months clean.", "good."])],
    habit=[["nasvay", "naswar"]])
stop("stop-89", "typos", "Orsolya", "Suki", [
    (0, "18:00", ["i go to spinning class at Fitlife every tuesday and thursdy", "nice"]),
    (30, "18:30", ["i stoped going to spinning, to expensive", "fair"])],
    habit=["spinning"])
stop("stop-90", "typos", "Pita", "Suki", [
    (0, "21:00", ["i drink kava with the boys every friday nite", "ok"]),
    (25, "21:30", ["i dont drink kava anymore, wifes orders lol", "ok"])],
    habit=["kava"])
stop("stop-91", "typos", "Quentin", "Mira", [
    (0, "23:00", ["i play the slot machines at the casino in Enghien every month", "ok"]),
    (40, "23:30", ["ditched the casino, never going back", "good call"])],
    habit=["casino"])
stop("stop-92", "typos", "Roisin", "Mira", [
    (0, "10:00", ["i volunteer at the charity shop on saturdays", "lovely"]),
    (30, "10:30", ["i left the charity shop, no time with the new job", "understandable"])],
    habit=["charity shop"])
stop("stop-93", "formal", "Sanele", "Quill", [
    (0, "09:00", ["I subscribe to the Mail & Guardian print edition, delivered every Friday.", "Noted."]),
    (30, "09:30", ["I have discontinued my Mail & Guardian subscription.", "Understood."])],
    habit=["Guardian"])
stop("stop-94", "formal", "Tereza", "Quill", [
    (0, "18:00", ["I attend the Tuesday novena at the Basilica of St. James in Prague.", "Thank you."]),
    (35, "18:30", ["Owing to my new working hours, I no longer attend the novena.", "Understood."])],
    habit=["novena"])
stop("stop-95", "formal", "Umut", "Tavi", [
    (0, "20:00", ["I play backgammon at the kahvehane on Bağdat Avenue most evenings.", "A fine pastime."]),
    (40, "20:30", ["I have relinquished my evenings of backgammon in order to care for my mother.",
                   "That is kind of you."])],
    habit=[["backgammon", "tavla"]])
stop("stop-96", "formal", "Vaiva", "Tavi", [
    (0, "11:00", ["I referee basketball matches in the Lithuanian youth league each weekend.", "Thank you."]),
    (50, "11:30", ["I have ceased refereeing; my final match was in March.", "Understood."])],
    habit=["refere"])
stop("stop-97", "indirect", "Wilbur", "Bram", [
    (0, "19:00", ["Weekend at last.", "Any plans?",
                  "Saturday morning I'm out metal detecting on the beach at Skegness, as always.",
                  "Good luck with the finds."]),
    (45, "19:30", ["Sold the metal detector at a car boot sale, and the buyer found a ring in the pouch "
                   "within ten minutes.", "Oh no, the irony!"])],
    habit=["detect"])
stop("stop-98", "indirect", "Yuna", "Bram", [
    (0, "15:00", ["My skin is so dry.", "Any favourite products?",
                  "Every month I get a K-beauty box from Memebox, so I try something new.", "Fun."]),
    (30, "15:30", ["Was clearing my inbox and unsubscribed from Memebox; the bathroom shelf was "
                   "overflowing.", "Makes sense."])],
    habit=["Memebox"])
stop("stop-99", "indirect", "Cosima", "Lio", [
    (0, "23:30", ["Late night again.", "Gaming?",
                  "Yes, I play World of Warcraft every night with my guild.", "Have fun."]),
    (40, "22:00", ["My guild threw me a farewell raid because I'm calling it quits with World of "
                   "Warcraft; I cried a little.", "That's sweet of them."])],
    habit=["Warcraft"])
stop("stop-100", "indirect", "Emre", "Lio", [
    (0, "08:00", ["Quiet morning today.", "How do you usually spend your mornings?",
                  "I feed the pigeons in the park by the mosque every morning.", "A peaceful start."]),
    (30, "08:30", ["A warden told me the council is fining people for it, so I dropped the pigeon "
                   "feeding and now just walk.", "Sensible."])],
    habit=["pigeon"])


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
