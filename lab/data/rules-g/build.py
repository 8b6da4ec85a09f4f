#!/usr/bin/env python3
"""Hand-written source of the rules-g set (cases.jsonl). Standard library only.

Usage: python3 build.py   (writes cases.jsonl next to this file)

A case is written as: id, style, partner, agent, its sessions and its expectations.
A session is (gap_days, "HH:MM", [turn texts]); the partner speaks first and the speakers
alternate. The first session of case k (its id number, 301-324) falls on
2023-01-03 + 7*(k-300) days; gap_days of a later session counts from the previous session's date.
Matchers: a list is {"all": list}; stop(habit) and change(new, old) build the class matchers.
The helpers, STOPW and CHGW are copied from lab/data/rules-d/build.py.
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

case("same-301", "plain", "Achieng", "Esker", [
    (0, "18:10", ["My sister Wambui runs a small upholstery business in Kisii.",
                  "That sounds like skilled work. Does she do chairs and sofas?"]),
    (12, "19:25", ["Work is slow this month. Wambui, my sister, still has her upholstery business in Kisii, so I might help her out.",
                   "Helping family can be a good way through a slow patch."]),
], once=[["wambui", "upholster"]])

case("same-302", "plain", "Bolanle", "Quinby", [
    (0, "20:00", ["My son Damilare turned 14 in May.",
                  "A big age. How is he finding secondary life?"]),
    (9, "20:40", ["Damilare, who is fourteen now, keeps asking for a phone of his own.",
                  "That request comes up a lot around that age."]),
], once=[["damilare", ["14", "fourteen"]]])

case("same-303", "plain", "Cenk", "Rafe", [
    (0, "08:15", ["I drive a grey Hyundai i20.",
                  "Small and practical. Good for town?"]),
    (15, "17:30", ["The grey Hyundai i20 needs a service next week, it's making a rattling noise.",
                   "Worth getting the rattle looked at before it gets worse."]),
], once=[["hyundai", "i20"]])

case("same-304", "plain", "Dagmar", "Corrie", [
    (0, "21:05", ["I've been married to Reinhold for 23 years.",
                  "That is a long time together. Congratulations."]),
    (20, "21:30", ["Reinhold and I have been married twenty-three years now, hard to believe.",
                   "It goes quickly when it goes well."]),
    (6, "09:45", ["We're thinking of a small party for the anniversary, nothing fancy.",
                  "A small party sounds lovely."]),
], once=[["reinhold", ["23", "twenty-three", "twenty three"]]])

case("same-305", "chatty", "Edwina", "Esker", [
    (0, "19:50", ["Oh goodness, what a week! Anyway, I volunteer at the Pinecrest animal sanctuary every Saturday, mucking out the donkeys, and it's the best part of my week!",
                  "That sounds muddy and wonderful. How many animals are there?"]),
    (8, "18:20", ["Guess where I'm off to tomorrow? Pinecrest sanctuary, as every Saturday, the donkeys will be waiting for me!",
                  "Enjoy it, and wear old boots."]),
], once=[["pinecrest", "donkey"]])

case("same-306", "chatty", "Gulalai", "Quinby", [
    (0, "22:10", ["Ha, so my cousin Zarghuna just opened a kebab place called Blue Minaret and it's already packed every night!",
                  "What a start. What's on the menu?"]),
    (11, "21:45", ["Ate at Blue Minaret again, my cousin Zarghuna's kebab spot, and honestly the bread alone is worth the trip.",
                   "Good bread makes a place."]),
], once=[["zarghuna", "minaret"]])

case("same-307", "chatty", "Hannelore", "Rafe", [
    (0, "16:40", ["So my husband Egon is obsessed with his model railway up in the loft, like properly obsessed, tiny trees and everything.",
                  "Some of those layouts are real works of art."]),
    (14, "15:15", ["Egon spent all Sunday on the model railway in the loft again, I brought him tea up there like a waiter haha.",
                   "Room service for the stationmaster."]),
], once=[["egon", "railway"]])

case("same-308", "chatty", "Ingeborg", "Corrie", [
    (0, "12:30", ["We've got a little holiday cottage on the island of Skarvoy, no power lines, just candles and the sea, it's heaven.",
                  "That sounds peaceful. How do you get there?"]),
    (30, "13:10", ["Counting the days till summer at our cottage on Skarvoy, I can almost smell the salt already!",
                   "Not long now."]),
], once=[["skarvoy", "cottage"]])

case("same-309", "terse", "Jasper", "Esker", [
    (0, "07:55", ["Landlord is Mr Okonkwo. Pays attention to nothing.",
                  "Noted."]),
    (21, "08:05", ["Heating broken again. Okonkwo, the landlord, not answering.",
                   "Maybe put the request in writing."]),
], once=[["okonkwo", "landlord"]])

case("same-310", "terse", "Kunal", "Quinby", [
    (0, "11:00", ["Address: Flat 17B, Tillbury Court.",
                  "Got it."]),
    (10, "11:20", ["Parcel never came. Address is 17B Tillbury Court, same as ever.",
                   "Worth checking with the sender."]),
], once=[[["17b", "17 b"], "tillbury"]])

case("same-311", "terse", "Liesbeth", "Rafe", [
    (0, "14:05", ["Grandson Maarten born in March. First one.",
                  "Congratulations."]),
    (25, "14:30", ["Maarten, my grandson, crawling now. Fast.",
                   "Time to move things off low shelves."]),
], once=[["maarten", ["grandson", "grandchild"]]])

case("same-312", "terse", "Mahala", "Corrie", [
    (0, "09:10", ["GP: Dr Achterberg, Vinestreet surgery.",
                  "Noted."]),
    (18, "09:40", ["Appt with Dr Achterberg tomorrow. Still my GP.",
                   "Good luck with it."]),
], once=[["achterberg", "gp"]])

case("same-313", "typos", "Nilsa", "Esker", [
    (0, "23:40", ["my boyfreind Teodoro works nights at the bottlng plant so im up late texting",
                  "Night shifts are hard on both of you."]),
    (7, "23:55", ["teodoro is on nights at the botling plant again this week, house is so quiet",
                  "Maybe a good time for a film of your own choosing."]),
], once=[["teodoro", ["bottl", "botl"]]])

case("same-314", "typos", "Obadiah", "Quinby", [
    (0, "17:00", ["i got a iguana calld Gumbo, hes 3 foot long lol",
                  "Quite a housemate. What does he eat?"]),
    (13, "17:20", ["gumbo my iguanna shed his skin today, its all over the tank",
                   "Make sure the humidity stays right during the shed."]),
], once=[["gumbo", ["iguana", "iguanna"]]])

case("same-315", "typos", "Prisca", "Rafe", [
    (0, "10:10", ["my mum lives in Bexhill, i visit her evry sunday",
                  "That's a nice routine to have."]),
    (14, "10:30", ["off to bexhil to see mum, sunday as allways. traffic wil be awful",
                   "Leave a little early then."]),
], once=[[["bexhill", "bexhil"], ["mum", "mother"]]])

case("same-316", "typos", "Quintus", "Corrie", [
    (0, "19:00", ["im a locksmith, been doin it 19 yrs now",
                  "You must have seen every kind of lock."]),
    (16, "19:15", ["19 years a locksmith and i stil locked myself out of the van today haha",
                   "It happens to the best."]),
], once=[["locksmith", ["19", "nineteen"]]])

case("same-317", "formal", "Rosaura", "Esker", [
    (0, "10:00", ["I should mention that I am the chairperson of the Elmsworth Residents' Association.",
                  "Thank you, that is useful context."]),
    (19, "10:15", ["As chairperson of the Elmsworth Residents' Association, I must prepare the annual report by the end of the month.",
                   "Would an outline help?"]),
], once=[["elmsworth", "chair"]])

case("same-318", "formal", "Sabela", "Quinby", [
    (0, "20:20", ["For your records: my husband, Xosé, is a paramedic with the regional emergency service.",
                  "Understood. Thank you for letting me know."]),
    (9, "20:45", ["My husband Xosé continues to work as a paramedic; his shifts are long this winter.",
                  "Long shifts in winter are demanding."]),
], once=[[["xosé", "xose"], "paramedic"]])

case("same-319", "formal", "Thaddea", "Rafe", [
    (0, "18:00", ["I hold a season ticket for Castlemoor Rovers.",
                  "I hope they are having a good year."]),
    (40, "18:30", ["My Castlemoor Rovers season ticket has been renewed once again, as is customary.",
                   "Another year in the stands."]),
], once=[["castlemoor", "ticket"]])

case("same-320", "formal", "Ulises", "Corrie", [
    (0, "12:00", ["I reside at 8 Cromarty Lane with my two daughters.",
                  "Thank you, noted."]),
    (22, "12:10", ["My two daughters and I remain at 8 Cromarty Lane; the girls have asked for a dog.",
                   "A dog would be a big decision."]),
], once=[["cromarty", "daughter"]])

case("same-321", "indirect", "Verity", "Esker", [
    (0, "18:45", ["Long day. Pennock & Vyse, where I work as a paralegal, had me drafting leases from nine till six.",
                  "That is a lot of leases."]),
    (10, "19:00", ["Another day of leases at Pennock & Vyse, paralegal life is nothing if not consistent.",
                   "Consistency has its comforts."]),
], once=[["pennock", "paralegal"]])

case("same-322", "indirect", "Wendeline", "Quinby", [
    (0, "08:30", ["Had to buy the twins, Ansel and Bruna, new rain boots again, their feet grow overnight.",
                  "Children's feet seem to grow by the week."]),
    (17, "08:50", ["Ansel and Bruna, my twins, both have colds, so no one slept.",
                   "I hope they feel better soon."]),
], once=[["ansel", "twin"]])

case("same-323", "indirect", "Xanthe", "Rafe", [
    (0, "15:00", ["Mondays and Thursdays are hospital days now, Dad's been on dialysis since spring.",
                  "That is a lot of driving and waiting."]),
    (12, "15:40", ["Took Dad to dialysis again this morning; we've got the waiting-room routine down.",
                   "A shared routine helps pass the hours."]),
], once=[["dialysis", ["dad", "father"]]])

case("same-324", "indirect", "Yohannes", "Corrie", [
    (0, "22:00", ["Stocktaking at Kaleb's Corner tonight, my grocery shop doesn't count itself!",
                  "Good luck with the counting."]),
    (15, "21:30", ["Kaleb's Corner, my little grocery, had its busiest Saturday ever.",
                   "Well done."]),
], once=[["kaleb", ["shop", "grocer"]]])

# ---------------------------------------------------------------- addition

case("add-301", "plain", "Amaury", "Esker", [
    (0, "19:00", ["I've been taking Georgian lessons on Tuesday evenings.",
                  "That alphabet is beautiful. How is it going?"]),
    (16, "19:20", ["I've also started Basque on Thursday nights, so my brain is full.",
                   "Two unusual languages at once, that's brave."]),
], active=[["georgian"], ["basque"]])

case("add-302", "plain", "Bexley", "Quinby", [
    (0, "17:30", ["We have a cat called Marmalade.",
                  "A good name. What is she like?"]),
    (12, "18:10", ["We adopted a second cat last week, a grey one called Tinsel.",
                   "How are the two of them getting along?"]),
], active=[["marmalade"], ["tinsel"]])

case("add-303", "plain", "Coralie", "Rafe", [
    (0, "20:00", ["I work weekdays at Holm & Daughters, a florist.",
                  "That sounds like a fragrant job."]),
    (10, "20:30", ["I took a second job on weekends pulling pints at the Drover's Arms.",
                   "That makes for a full week."]),
], active=[["holm"], ["drover"]])

case("add-304", "plain", "Dunstan", "Corrie", [
    (0, "09:30", ["My brother Aldous lives in Inveraray.",
                  "A lovely part of the world."]),
    (20, "09:45", ["My other brother, Crispian, just bought a flat in Dundee.",
                   "Good to have family spread across the map."]),
], active=[["aldous"], ["crispian"]])

case("add-305", "chatty", "Elowen", "Esker", [
    (0, "21:00", ["So I finally joined a book club!! It meets at a little shop called Inkwell on the first Monday of the month.",
                  "Exciting! What's the first book?"]),
    (18, "21:15", ["Guess what, I've gone and joined ANOTHER thing, a board game night at the Fox and Dice pub on Wednesdays. Keeping the book club too, obviously!",
                   "Your calendar is filling up nicely."]),
], active=[["book club"], [["board game", "board-game", "boardgame"]]])

case("add-306", "chatty", "Florian", "Quinby", [
    (0, "13:00", ["Just put three apple trees in at the back of the garden, I'm so excited!",
                  "Apples from your own garden, lovely."]),
    (25, "13:30", ["The apple trees are doing great and, wait for it, I've added a pear tree and a damson on the side wall!",
                   "A proper little orchard now."]),
], active=[["apple"], ["pear"], ["damson"]])

case("add-307", "chatty", "Gaspara", "Rafe", [
    (0, "11:00", ["We finally have a grandchild! Little Noa was born on Tuesday, I'm over the moon.",
                  "Congratulations to the whole family!"]),
    (40, "11:20", ["Grandbaby number two has arrived! My daughter had a boy, Ruben, and Noa keeps poking his nose.",
                   "How lovely, two little ones."]),
], active=[["noa"], ["ruben"]])

case("add-308", "chatty", "Hesper", "Corrie", [
    (0, "16:00", ["I've started collecting vintage fountain pens, found a lovely old Parker at a flea market!",
                  "A great first find."]),
    (14, "16:10", ["The pen collection grew again, found a green Pelikan at an estate sale, I'm hooked honestly.",
                   "It sounds like a collection is really forming."]),
], active=[["parker"], ["pelikan"]])

case("add-309", "terse", "Isidora", "Esker", [
    (0, "08:00", ["Meds: losartan 50mg, mornings.",
                  "Noted."]),
    (30, "08:10", ["Added: simvastatin 20mg at night. Losartan stays.",
                   "Noted, both."]),
    (14, "08:05", ["Refills due Friday. Both.",
                   "I'll mention it on Thursday."]),
], active=[["losartan"], ["simvastatin"]])

case("add-310", "terse", "Jolyon", "Quinby", [
    (0, "22:30", ["Got a 3D printer. Garage workshop expanding.",
                  "Nice."]),
    (19, "22:40", ["Bought a CNC router too.",
                   "A serious setup."]),
], active=[[["3d printer", "3-d printer"]], ["cnc"]])

case("add-311", "terse", "Kasimira", "Rafe", [
    (0, "12:15", ["Bank: Nordea. Salary goes there.",
                  "Noted."]),
    (11, "12:20", ["Opened a 2nd account, Handelsbanken, for savings. Nordea stays.",
                   "Got it."]),
], active=[["nordea"], ["handelsbanken"]])

case("add-312", "terse", "Lysander", "Corrie", [
    (0, "20:00", ["I host a podcast. Dead Air Club. Weekly.",
                  "What's it about?"]),
    (27, "20:20", ["Second podcast live: The Compost Heap. Gardening.",
                   "Two shows, busy."]),
], active=[["dead air"], ["compost heap"]])

case("add-313", "typos", "Mercia", "Esker", [
    (0, "18:30", ["i foster kittens for the rescue centre, got a little black one calld Noodle atm",
                  "Fostering is such kind work."]),
    (9, "18:45", ["took in anothr foster kitten, a grey one calld Pippa, noodle is stil here too",
                  "Two kittens at once, busy house."]),
], active=[["noodle"], ["pippa"]])

case("add-314", "typos", "Nikolaj", "Quinby", [
    (0, "21:10", ["i play in a 7-a-side footbal team on mondays, we r terrible",
                  "The fun part is playing."]),
    (22, "21:30", ["joined a futsal leage aswell, fridays, my legs r dead",
                   "Rest days matter too."]),
], active=[[["7-a-side", "seven-a-side", "7 a side", "seven a side"]], ["futsal"]])

case("add-315", "typos", "Pomona", "Rafe", [
    (0, "17:15", ["my daugter goes to ballet at Miss Avery's school on saturdays",
                  "Does she enjoy it?"]),
    (15, "17:40", ["she also startd tap dance clases now on wensdays, plus the balet ofc",
                   "Busy feet."]),
], active=[[["ballet", "balet"]], [["tap danc", "tap-danc", "tap clas"]]])

case("add-316", "typos", "Rasmina", "Corrie", [
    (0, "23:00", ["i sell hand made candles on etsy as a side thing",
                  "How is it going?"]),
    (20, "23:10", ["now selling soaps on there aswell, goin good",
                   "Nice to branch out."]),
], active=[["candle"], ["soap"]])

case("add-317", "formal", "Severin", "Esker", [
    (0, "10:30", ["I serve as a trustee of the Whitlow Almshouse Charity.",
                  "Thank you for telling me."]),
    (35, "10:45", ["I have additionally accepted a trusteeship with the Marram Coast Trust.",
                   "Congratulations on the appointment."]),
], active=[["whitlow"], ["marram"]])

case("add-318", "formal", "Tiberius", "Quinby", [
    (0, "15:00", ["I own a 1967 Triumph Bonneville, a motorbike I maintain myself.",
                  "A classic machine."]),
    (28, "15:20", ["I have recently acquired a second motorbike, a 1972 Moto Guzzi, to keep company with the Triumph.",
                   "A fine pair for the garage."]),
], active=[["triumph"], ["guzzi"]])

case("add-319", "formal", "Ulrich", "Rafe", [
    (0, "19:30", ["I am a certified sommelier.",
                  "Noted, thank you."]),
    (45, "19:45", ["I have also qualified as a certified cicerone, the equivalent credential for beer.",
                   "Congratulations on the second credential."]),
], active=[["sommelier"], ["cicerone"]])

case("add-320", "formal", "Valka", "Corrie", [
    (0, "09:00", ["Please note that our household includes my mother-in-law, Radmila.",
                  "Noted."]),
    (16, "09:20", ["Our household has grown: my nephew Ondrej will be living with us for the academic year.",
                   "Understood. A fuller house."]),
], active=[["radmila"], ["ondrej"]])

case("add-321", "indirect", "Wystan", "Esker", [
    (0, "07:10", ["Between walking Barley, our lurcher, morning and evening, I barely get time to read.",
                  "Lurchers do like their exercise."]),
    (21, "07:30", ["Barley has a partner in crime now, a lurcher pup called Oats, so it's double the lead-pulling.",
                   "Two dogs, twice the walks."]),
], active=[["barley"], ["oats"]])

case("add-322", "indirect", "Yevhen", "Quinby", [
    (0, "22:00", ["Sorry for the late reply, I was marking essays for my evening class at the Folk University, where I teach Ukrainian.",
                  "No need to apologise. How big is the class?"]),
    (30, "22:20", ["Two piles of marking now, since the community college asked me to take their Polish course as well.",
                   "That is a lot of red pen."]),
], active=[["ukrainian"], ["polish"]])

case("add-323", "indirect", "Zdravka", "Rafe", [
    (0, "18:50", ["My feet are killing me after the Saturday shift at the Haverly farm shop.",
                  "Put them up tonight."]),
    (14, "19:05", ["Feet and back both now, between Haverly on Saturdays and the Wednesday evenings I picked up at the Tolland launderette.",
                   "That's a lot of standing."]),
], active=[["haverly"], ["tolland"]])

case("add-324", "indirect", "Adalind", "Corrie", [
    (0, "16:20", ["Half my weekend goes on driving Kip to judo.",
                  "A dedicated chauffeur service."]),
    (26, "16:40", ["And now Kip wants Saturdays for judo and Sunday mornings for orienteering, my car is basically his.",
                   "He keeps you busy."]),
], active=[["judo"], ["orienteer"]])

# ---------------------------------------------------------------- change

change("chg-301", "plain", "Barnaby", "Esker", [
    (0, "18:00", ["I work as a carpenter for Brightwater Joinery.",
                  "Good solid trade."]),
    (30, "18:15", ["I've started a new job as an estimator at Carrow Construction.",
                   "A different side of the building world."]),
    (14, "18:30", ["Estimating is more desk work than I expected, my back misses the workbench.",
                   "Maybe a standing desk would help."]),
], new=["carrow"], old=["brightwater"])

change("chg-302", "plain", "Celestyna", "Quinby", [
    (0, "19:10", ["We live in a flat above the chemist on Kestle Street.",
                  "Handy for prescriptions."]),
    (25, "19:30", ["We moved last month; we're now in a terraced house on Oldmoor Road.",
                   "Congratulations on the new house."]),
], new=["oldmoor"], old=["kestle"])

change("chg-303", "plain", "Dymphna", "Rafe", [
    (0, "21:00", ["I'm seeing a guy called Leif, it's going well.",
                  "Glad to hear it."]),
    (40, "21:20", ["Leif is my ex-boyfriend now. I'm with Dominik these days and much happier.",
                   "I'm glad you're happy."]),
], new=["dominik"], old=["leif"],
       extra_none=["split", "broke up", "breakup", "break-up"])

change("chg-304", "plain", "Eitan", "Corrie", [
    (0, "08:40", ["My phone is a battered Lenovo with a cracked screen.",
                  "Sounds like it has had a life."]),
    (18, "08:55", ["I finally got a Realme to replace the Lenovo.",
                   "Enjoy the new screen."]),
], new=["realme"], old=["lenovo"])

change("chg-305", "chatty", "Ferdinanda", "Esker", [
    (0, "20:30", ["Ugh, Mondays! I'm a nanny for a family in Coldharbour, the Pettigrews, three kids, chaos but lovely.",
                  "Three kids is a lot of chaos!"]),
    (33, "20:50", ["Big news!! I work at a dog grooming salon now, Fluff & Co, and it's honestly so much calmer than the Pettigrew madhouse was haha.",
                   "Dogs over toddlers, a fair trade."]),
], new=["fluff"], old=["pettigrew"], extra_none=["was "])

change("chg-306", "chatty", "Gaurav", "Quinby", [
    (0, "13:20", ["Sooo my diet right now is paleo, lots of meat and veg, my brother thinks I'm mad haha.",
                  "How are you finding it?"]),
    (24, "13:40", ["Okay don't laugh but I've gone macrobiotic, brown rice and seaweed, the works. I'm not doing paleo anymore haha.",
                   "Quite a swing!"]),
], new=["macrobiotic"], old=["paleo"])

change("chg-307", "chatty", "Hyacintha", "Rafe", [
    (0, "07:00", ["My gym is Pulse Fitness on Merrow Road, love it there, the staff are so friendly!",
                  "A friendly gym makes a difference."]),
    (29, "07:15", ["I've switched to Arcadia Leisure now, it's got a pool AND a sauna!!",
                   "A sauna after training sounds great."]),
], new=["arcadia"], old=["pulse"])

change("chg-308", "chatty", "Ilario", "Corrie", [
    (0, "17:00", ["Oh, my car's a Renault Kangoo, ugly but useful haha, fits all my gear.",
                  "Practical wins."]),
    (36, "17:10", ["Traded in the Kangoo for a little Suzuki Ignis! Parking is a dream now.",
                   "Small cars are easy in town."]),
], new=["ignis"], old=["kangoo"])

change("chg-309", "terse", "Jurgita", "Esker", [
    (0, "21:40", ["Internet provider: Telia.",
                  "Noted."]),
    (22, "21:45", ["Internet's Cgates now. Cheaper.",
                   "Noted."]),
], new=["cgates"], old=["telia"])

change("chg-310", "terse", "Kwabena", "Quinby", [
    (0, "14:00", ["Studying accounting at Kelmscott College.",
                  "Good luck with it."]),
    (60, "14:10", ["Transferred to Ravelstone University. Same course.",
                   "Good move."]),
], new=["ravelstone"], old=["kelmscott"])

change("chg-311", "terse", "Leontyne", "Rafe", [
    (0, "18:00", ["Coach Hawthorn Harriers under-15s.",
                  "Nice."]),
    (45, "18:05", ["Left the Harriers. Coaching Brockley Blues U15 instead.",
                   "New squad."]),
], new=["brockley"], old=["hawthorn"])

change("chg-312", "terse", "Mstislav", "Corrie", [
    (0, "06:30", ["Road bike: Orbea.",
                  "Noted."]),
    (20, "06:40", ["Sold the Orbea. Riding a Canyon now.",
                   "Enjoy it."]),
], new=["canyon"], old=["orbea"])

change("chg-313", "typos", "Nohemi", "Esker", [
    (0, "22:20", ["i rent a room off my aunt in Pollard Heights, its ok",
                  "Saving money, at least."]),
    (31, "22:40", ["got my own studio apartmnt in Westwick finaly!! no more auntie rules",
                   "Congratulations on your own place!"]),
    (10, "22:10", ["westwick is so quiet at nite, i sleep like a baby",
                   "Good sleep is worth a lot."]),
], new=["westwick"], old=["pollard"])

change("chg-314", "typos", "Oddny", "Quinby", [
    (0, "12:00", ["my hairdreser is Gudrun at Snip Snap, shes great",
                  "A good hairdresser is gold."]),
    (35, "12:20", ["i go to Mane Street for my hair now since gudrun kept being late",
                   "Reliability counts."]),
], new=["mane street"], old=["gudrun"])

change("chg-315", "typos", "Piran", "Rafe", [
    (0, "19:00", ["i work at Costwise the discount store, stacking shelfs mostly",
                  "Steady work."]),
    (17, "19:20", ["quit costwise lol, workin at Suds Express the carwash now",
                   "Hope the new place treats you well."]),
], new=["suds"], old=["costwise"])

change("chg-316", "typos", "Raphaela", "Corrie", [
    (0, "20:45", ["my mobil contract is with Giffgaff",
                  "Noted."]),
    (27, "21:00", ["went over to Lebara, way cheeper than giffgaff was",
                   "Nice saving."]),
], new=["lebara"], old=["giffgaff"])

change("chg-317", "formal", "Sigvard", "Esker", [
    (0, "09:00", ["I am employed as a copywriter at Brandvold Advertising.",
                  "Thank you."]),
    (50, "09:20", ["I have accepted a position as creative director at Ostmark Agency, commencing this month.",
                   "Congratulations on the new role."]),
], new=["ostmark"], old=["brandvold"])

change("chg-318", "formal", "Tjorven", "Quinby", [
    (0, "16:00", ["My children attend Linfield Primary School.",
                  "Noted."]),
    (70, "16:30", ["Following our relocation, the children now attend Saint Brannoc's School.",
                   "I hope they settle in well."]),
], new=["brannoc"], old=["linfield"])

change("chg-319", "formal", "Ulyana", "Rafe", [
    (0, "11:30", ["My general practitioner is Dr Marwick at the Tennant Street practice.",
                  "Noted."]),
    (40, "11:45", ["Please note that my general practitioner is now Dr Okoro-Hale at Limebrook Surgery.",
                   "Updated, thank you."]),
], new=["okoro"], old=["marwick"])

change("chg-320", "formal", "Vasco", "Corrie", [
    (0, "14:00", ["I am the manager of the Quayside Inn.",
                  "That must keep you busy."]),
    (55, "14:20", ["I have taken up the post of general manager at the Gullmere Lodge.",
                   "Congratulations on the appointment."]),
], new=["gullmere"], old=["quayside"])

change("chg-321", "indirect", "Wendelin", "Esker", [
    (0, "19:40", ["The commute is murder, fifty minutes each way to the Norrtull office.",
                  "That eats into the day."]),
    (30, "19:50", ["Loving my ten-minute walk to work since the company put me in the Sodermalm office.",
                   "What a difference."]),
], new=["sodermalm"], old=["norrtull"])

change("chg-322", "indirect", "Yaretzi", "Quinby", [
    (0, "21:10", ["My girlfriend Maribel and I are planning a trip to Oaxaca in the autumn.",
                  "That sounds like a wonderful trip."]),
    (60, "21:30", ["Celebrating one month with Xiomara tonight, my first proper relationship since the breakup with Maribel.",
                   "Happy one month."]),
], new=["xiomara"], old=["maribel"],
       extra_none=["split", "broke up", "breakup", "break-up"])

change("chg-323", "indirect", "Zelimir", "Rafe", [
    (0, "07:20", ["It's freezing in this basement flat on Wexcombe Road, I'm wearing two jumpers indoors.",
                  "Basements can be very cold."]),
    (45, "07:40", ["Finally some sun, our top-floor place in Harbrook gets light all day.",
                   "That must feel great."]),
], new=["harbrook"], old=["wexcombe"])

change("chg-324", "indirect", "Anatole", "Corrie", [
    (0, "23:00", ["Writing this on my ancient Chromebook, so forgive the typos.",
                  "No problem at all."]),
    (21, "23:10", ["This new Surface laptop makes these messages so much quicker to write.",
                   "Enjoy the upgrade."]),
], new=["surface"], old=["chromebook"])

# ---------------------------------------------------------------- stop

stop("stop-301", "plain", "Bellamira", "Esker", [
    (0, "08:00", ["I drink two cans of Red Bull every morning.",
                  "That is a lot of caffeine."]),
    (21, "08:20", ["I quit Red Bull three weeks ago and my sleep is better.",
                   "Good for you."]),
], habit=["red bull"])

stop("stop-302", "plain", "Cosmo", "Quinby", [
    (0, "18:30", ["I ride with the Saturday mountain bike group.",
                  "Muddy fun."]),
    (30, "18:45", ["I've stopped going to the mountain bike group since I hurt my wrist.",
                   "I hope the wrist heals."]),
], habit=["mountain bik"])

stop("stop-303", "plain", "Drusilla", "Rafe", [
    (0, "19:00", ["I get a massage every fortnight at the Sorrento spa.",
                  "Sounds relaxing."]),
    (20, "19:10", ["I cancelled the fortnightly massages to save money.",
                   "Sensible."]),
], habit=["massage"])

stop("stop-304", "plain", "Ephraim", "Corrie", [
    (0, "22:00", ["I write in a journal every night before bed.",
                  "A calming habit."]),
    (35, "22:15", ["I've given up on the journal; nothing written in it since January.",
                   "Habits come and go."]),
], habit=["journal"])

stop("stop-305", "chatty", "Fidelma", "Esker", [
    (0, "21:30", ["My guilty pleasure? Watching Love Island every single night with a bowl of popcorn, haha.",
                  "Everyone needs a guilty pleasure."]),
    (28, "21:40", ["Guess who's finished with reality TV! Not a single episode of Love Island in a month and I feel so much smarter.",
                   "Ha, what do you do with the evenings now?"]),
], habit=["love island"])

stop("stop-306", "chatty", "Gwenda", "Quinby", [
    (0, "07:45", ["I get a pastry from Flourish every morning on the way to work, it's a ritual!",
                  "A nice way to start the day."]),
    (26, "07:50", ["No more morning pastries for me! My doctor had a word about my cholesterol.",
                   "Looking after yourself, good."]),
], habit=["pastr"])

stop("stop-307", "chatty", "Hiltrud", "Rafe", [
    (0, "20:15", ["Every Thursday night it's line dancing at the village hall with my sister, we're hopeless but it's so fun!",
                  "Sounds like a laugh."]),
    (30, "20:30", ["So sad, we're done with line dancing, the hall is being turned into flats.",
                   "That's a shame, maybe another venue will start up."]),
], habit=["line danc"])

stop("stop-308", "chatty", "Ishbel", "Corrie", [
    (0, "18:00", ["Honestly I'm hooked on that Gems Rush game on my phone, I play it on every bus ride.",
                  "Those games are designed to hook you."]),
    (14, "18:10", ["Deleted Gems Rush!!! It was eating my life. Proud of me?",
                   "Very proud."]),
], habit=["gems rush"])

stop("stop-309", "terse", "Jocasta", "Esker", [
    (0, "12:00", ["Gel manicure every two weeks.",
                  "Noted."]),
    (30, "12:05", ["Manicures: ditched. Nails need a rest.",
                   "Fair."]),
], habit=["manicure"])

stop("stop-310", "terse", "Kolya", "Quinby", [
    (0, "06:00", ["Daily creatine, 5g.",
                  "Noted."]),
    (40, "06:10", ["Creatine: stopped in March.",
                   "Noted."]),
], habit=["creatine"])

stop("stop-311", "terse", "Lorelei", "Rafe", [
    (0, "13:00", ["Vending machine lunch most days.",
                  "Not ideal."]),
    (20, "13:05", ["No vending machine lunches anymore. Packing my own.",
                   "Good."]),
], habit=["vending"])

stop("stop-312", "terse", "Maelle", "Corrie", [
    (0, "07:00", ["Subscribed to Le Figaro, print edition.",
                  "Noted."]),
    (50, "07:10", ["Unsubscribed from Le Figaro. Reading online.",
                   "Noted."]),
], habit=["figaro"])

stop("stop-313", "typos", "Norberto", "Esker", [
    (0, "20:00", ["i crack my knuckles all the time, my wife hates it",
                  "A hard habit to shake."]),
    (30, "20:10", ["finaly kicked the knuckle craking habit!! wife is thrilled",
                   "Well done."]),
], habit=["knuckle"])

stop("stop-314", "typos", "Olympia", "Quinby", [
    (0, "17:30", ["i do kettlebell clases at the rec center three times a week",
                  "Great for strength."]),
    (25, "17:40", ["gave up the kettlebell clases, my shoulder hurts to much",
                   "Look after the shoulder."]),
], habit=["kettlebell"])

stop("stop-315", "typos", "Perpetuo", "Rafe", [
    (0, "23:30", ["i play the slot machines at the arcade every payday",
                  "How much do they usually take?"]),
    (35, "23:40", ["been 2 months, im done with the slot machines for good",
                   "Two months is a real achievement."]),
], habit=["slot"])

stop("stop-316", "typos", "Rhiannon", "Corrie", [
    (0, "15:00", ["i drink like 6 cans of diet pepsi a day",
                  "That is a lot of cans."]),
    (21, "15:20", ["stoped the pepsi cold turkey 3 weeks ago!! headaches r gone",
                   "Well done getting through the headaches."]),
], habit=["pepsi"])

stop("stop-317", "formal", "Thorsten", "Esker", [
    (0, "19:00", ["I attend the Thursday evening meetings of my Freemasons' lodge.",
                  "Thank you for telling me."]),
    (60, "19:15", ["I have resigned my membership of the lodge.",
                   "Noted."]),
], habit=["lodge"])

stop("stop-318", "formal", "Ulani", "Quinby", [
    (0, "22:30", ["I take a sleeping tablet, zolpidem, each night.",
                  "Noted."]),
    (45, "22:40", ["On my physician's advice, I have discontinued zolpidem.",
                   "Noted, thank you."]),
], habit=["zolpidem"])

stop("stop-319", "formal", "Vittorio", "Rafe", [
    (0, "10:00", ["I maintain a membership at the Ashgrove Racquet Club.",
                  "Very good."]),
    (70, "10:20", ["I relinquished my Ashgrove Racquet Club membership at the end of the year.",
                   "Noted."]),
], habit=["ashgrove"])

stop("stop-320", "formal", "Wilhelmine", "Corrie", [
    (0, "09:30", ["I volunteer each Tuesday as a reading helper at Burnside Infant School.",
                  "A valuable thing to do."]),
    (50, "09:45", ["I have ceased my Tuesday volunteering as a reading helper; the school has found younger helpers.",
                   "Thank you for all those Tuesdays."]),
], habit=["reading helper"])

stop("stop-321", "indirect", "Ysabel", "Esker", [
    (0, "14:10", ["Back from my usual lunchtime pint at the Gilded Hare, now for the afternoon slog.",
                  "Good luck with the afternoon."]),
    (30, "14:20", ["Lunch is a salad at my desk these days, the Gilded Hare hasn't seen me since February.",
                   "A change of pace."]),
], habit=["gilded hare"])

stop("stop-322", "indirect", "Zohra", "Quinby", [
    (0, "11:00", ["Sunday mornings I'm always at the Fenmarket flea market hunting for teacups.",
                  "Any good finds lately?"]),
    (40, "11:20", ["Sundays feel strange without the Fenmarket; my cupboards simply have no room for more teacups.",
                   "A quieter Sunday, then."]),
    (20, "10:40", ["Gave half my teacup collection to my niece today, she squealed.",
                   "They've gone to a good home."]),
], habit=["fenmarket"])

stop("stop-323", "indirect", "Bertilda", "Rafe", [
    (0, "21:00", ["Swiping on Bumble again tonight, wish me luck with the next date.",
                  "Good luck!"]),
    (30, "21:10", ["Best feeling ever, I deleted Bumble; turns out I'm much happier on my own for now.",
                   "Being happy on your own is great."]),
], habit=["bumble"])

stop("stop-324", "indirect", "Cyrilla", "Corrie", [
    (0, "09:00", ["Sorry if I'm slow this morning, my hands are still shaky from my usual three espressos.",
                  "Maybe a glass of water too."]),
    (33, "09:15", ["My hands are steady these days. I gave the espresso machine to my brother and I don't miss it.",
                   "Steady hands are a good sign."]),
], habit=["espresso"])


# ---------------------------------------------------------------- write

def build():
    out = []
    for c in CASES:
        k = int(c["id"].split("-")[1])
        day = datetime(2023, 1, 3) + timedelta(days=7 * (k - 300))
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
