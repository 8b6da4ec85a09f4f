#!/usr/bin/env python3
"""Writes cases.jsonl (the memlane rule cases) from the hand-written table below.

Standard library only. Run: python3 build.py && python3 validate.py
"""
import json
from datetime import datetime, timedelta

CASES = []


def M(*all_, none=None):
    m = {"all": [a if isinstance(a, str) else list(a) for a in all_]}
    if none:
        m["none"] = list(dict.fromkeys(none))
    return m


# words that mark a stop; used as `none` on the habit (retired) and as
# alternatives on the stop (active)
STOPW = ["quit", "stop", "gave up", "given up", "give up", "giving up", "no longer",
         "any more", "anymore", "cut out", "cut down", "cutting", "cut ", "cancel",
         "discontinu", "drop", "packed in", "pack in", "kicked", "ditch", "ceas",
         "called it", "done with", "n't", "not ", "never", "without", "former",
         "used to", "delet", "left ", "leav", "sold", "abandon", "finish"]

# words that mark a change; used (with the new state's own keywords) as `none`
# on the old state
CHW = ["used to", "formerly", "former ", "previous", "no longer", "anymore", "any more",
       "switch", "swapped", "sold", "moved", "instead", "left ", "until", "stop", "quit"]


def stop_expect(habit):
    """habit: list of alternatives naming the habit"""
    return dict(active=[M(habit, STOPW)], retired=[M(habit, none=STOPW)])


def change_expect(new_active, old, new_words, extra_none=()):
    return dict(active=new_active,
                retired=[M(*old, none=list(new_words) + list(extra_none) + CHW)])


def case(id_, cls, style, partner, agent, sessions, active=(), once=(), retired=(), absent=(), gaps=None):
    CASES.append(dict(id=id_, cls=cls, style=style, partner=partner, agent=agent,
                      sessions=sessions, gaps=gaps,
                      expect=dict(active=list(active), once=list(once),
                                  retired=list(retired), absent=list(absent))))


# ---------------------------------------------------------------- same (28)
# odd numbers: exact repeat; even numbers: same statement in other words

case("same-01", "same", "plain", "Nadia", "Kai", [
    ["My brother Tomasz is a firefighter in Gdansk.",
     "That sounds like demanding work. How are you today?",
     "Good. A bit tired.",
     "Take it easy this evening."],
    ["My brother Tomasz is a firefighter in Gdansk. We spoke on the phone last night.",
     "It's nice that you keep in touch."],
], once=[M("Tomasz", "Gdansk")])

case("same-02", "same", "plain", "Oskar", "Remi", [
    ["I keep a tortoise named Pebble. Pebble is 40 years old.",
     "That's a long life already. What are your plans for the weekend?",
     "I am visiting my cousin in Lund.",
     "Enjoy the trip."],
    ["Pebble, my tortoise, is forty years old.",
     "Good to know. How was Lund?",
     "Quiet. We mostly walked.",
     "Quiet trips have their place."],
], once=[M("Pebble", ["40", "forty"])])

case("same-03", "same", "plain", "Priya", "Juno", [
    ["I teach maths at Hollybrook Primary.",
     "What got you into teaching?",
     "My mother was a teacher.",
     "That's a lovely thing to carry on."],
    ["I teach maths at Hollybrook Primary. Today was sports day.",
     "Did it stay dry?",
     "Yes, just about.",
     "Lucky."],
], once=[M("Hollybrook")])

case("same-04", "same", "plain", "Mateo", "Sol", [
    ["My daughter Valentina is seven years old.",
     "Thanks for telling me. What are you up to this weekend?",
     "Fixing the fence.",
     "Good luck with it."],
    ["Valentina is my seven-year-old daughter.",
     "Thanks. How is your week going?",
     "Busy at work.",
     "I hope it calms down soon."],
], once=[M("Valentina", ["seven", "7"])])

case("same-05", "same", "plain", "Hiroshi", "Nia", [
    ["I drive a blue Honda Jazz.",
     "Thanks for telling me. Where are you off to today?",
     "The garden centre.",
     "Enjoy."],
    ["My son starts university in Nagoya next month.",
     "A big step for both of you."],
    ["I drive a blue Honda Jazz.",
     "Noted. Anything planned for the weekend?",
     "Just rest.",
     "Sounds good."],
], once=[M("Jazz")])

case("same-06", "same", "chatty", "Leila", "Ori", [
    ["Ugh what a week 😅 the boiler broke on Monday, my neighbour has been drilling since 7am every day, "
     "and on top of that I'm training for the Lisbon half marathon in October so my legs are jelly. "
     "Anyway! I finally booked the dentist, go me lol",
     "That's a lot at once. Is the boiler fixed yet?",
     "Yes thank god, a guy called Rui came on Wednesday and sorted it in twenty minutes. Charged me a fortune though 🙃",
     "Twenty minutes and a fortune, classic."],
    ["Back again! Training update: October's half marathon in Lisbon is still the goal, legs permitting 😂 "
     "Oh and my cousin Yasmin is getting married in June!!",
     "Congratulations to Yasmin! Are you in the wedding party?",
     "Bridesmaid, apparently. Send help.",
     "You'll be great."],
], once=[M("Lisbon")])

case("same-07", "same", "chatty", "Bongani", "Tess", [
    ["Eish, long day! 😅 My wife Thandi runs a flower shop in Durban and it's wedding season, so I spent my "
     "Saturday tying ribbons on 200 bouquets. My fingers are finished. Also the Sharks lost again, don't even ask 🙈",
     "Two hundred bouquets is serious work. Did you at least get lunch out of it?",
     "Bunny chow from the place on the corner, so yes, worth it 😂",
     "Fair trade."],
    ["Hey hey! Quick catch-up: my wife Thandi runs a flower shop in Durban, and Valentine's week nearly broke us 😂 "
     "Also I started reading a thriller my brother lent me, can't put it down",
     "Glad you survived it. What's the thriller about?",
     "A heist in Cape Town, very silly, love it",
     "Silly is the best kind sometimes."],
], once=[M("Thandi", "Durban")], gaps=[12])

case("same-08", "same", "chatty", "Ingrid", "Kai", [
    ["Hiya! Went to a friend's barbecue last night and ate my body weight in halloumi lol. Oh and random but "
     "useful: I'm allergic to shellfish 🦐 Work's been manic, we launch the new app in two weeks",
     "Sounds like you made the best of it. What's the app?",
     "A booking thing for dog groomers, don't laugh 😂",
     "Dog groomers need bookings too."],
    ["Okay so shellfish and I don't mix, I'm allergic, I know I've said it 🙄 Anyway the app launched and "
     "nothing caught fire! My sister's taking me out for my birthday on Friday",
     "Happy early birthday! Where are you going?",
     "A Thai place near the harbour",
     "Sounds lovely."],
], once=[M("shellfish")])

case("same-09", "same", "chatty", "Rafael", "Juno", [
    ["Fala Juno! 😄 Weekend was great, I have season tickets for Fluminense so obviously I was at the Maracanã "
     "on Sunday, we won 2-0!! Then feijoada at my uncle's. Now I need a nap lol",
     "Sounds like a perfect Sunday. Was the stadium full?",
     "Packed. My voice is gone 😂",
     "Worth it, I'm sure."],
    ["Hey! Crazy week at the office, new manager, lots of meetings 😩 but I have season tickets for Fluminense, "
     "so at least Saturday is sorted ⚽",
     "Something to look forward to. How's the new manager?",
     "Too early to say, she likes spreadsheets a lot lol",
     "Spreadsheets can reveal a lot about a person."],
], once=[M("Fluminense", "season")])

case("same-10", "same", "chatty", "Chloe", "Remi", [
    ["Ahh finally a day off 😴 I'm a nurse at St Aidan's, three night shifts a week on the cardiac ward, so "
     "days off are sacred. Spent this one repotting my monstera and watching trash telly. Bliss.",
     "That sounds like the right way to spend it. How's the monstera?",
     "Thriving, unlike me lol. It's got a new leaf!",
     "A new leaf is a win."],
    ["Morning! Just off shift 🌙 still at St Aidan's doing my three nights a week as a cardiac nurse, it was a "
     "quiet one for once. My flatmate Priti made pancakes so I'm in heaven",
     "Pancakes after a long night sound ideal. Heading to bed now?",
     "Yep, blackout curtains and earplugs, see you on the other side 😂",
     "Sleep well."],
], once=[M("Aidan", "nurse")])

case("same-11", "same", "terse", "Dmitri", "Sol", [
    ["vegetarian since 2019.",
     "Noted. Anything else today?",
     "gym later.",
     "Have a good session."],
    ["vegetarian since 2019.",
     "Got it. Any favourite dishes?",
     "mushroom stroganoff.",
     "A good choice."],
], once=[M("vegetarian", "2019")])

case("same-12", "same", "terse", "Amara", "Nia", [
    ["cat called ziggy. 3 yrs old.",
     "Thanks. Plans today?",
     "library. revising.",
     "Good luck."],
    ["ziggy, my cat, is three.",
     "Thanks. Busy day?",
     "v. busy. exams.",
     "Good luck with them."],
], once=[M("Ziggy", ["3", "three"])])

case("same-13", "same", "terse", "Finn", "Ori", [
    ["brewer at Norhavn Brewing.",
     "What's the weekend look like?",
     "hiking. Mournes.",
     "Enjoy the views."],
    ["brewer at Norhavn Brewing.",
     "Thanks. How was the hike?",
     "wet. good though.",
     "The best hikes often are."],
    ["brewer at Norhavn Brewing. long week.",
     "Hope the weekend is restful."],
], once=[M("Norhavn")])

case("same-14", "same", "terse", "Yusuf", "Tess", [
    ["live in eskisehir w my parents",
     "Thanks. What's new?",
     "new headphones lol",
     "Enjoy them."],
    ["still at my parents' place in eskisehir",
     "What's new this week?",
     "job hunting.",
     "Good luck with the search."],
], once=[M(["Eskisehir", "Eskişehir"])])

case("same-15", "same", "terse", "Greta", "Kai", [
    ["type 1 diabetic.",
     "Thanks for telling me. What's on today?",
     "swim training. 6pm.",
     "Have a good session."],
    ["type 1 diabetic.",
     "Noted. Anything else going on?",
     "packing for Riga.",
     "Safe travels."],
], once=[M(["type 1", "type one", "type-1", "type i "], "diabet")])

case("same-16", "same", "typos", "Tariq", "Juno", [
    ["my sistr hala is a vet in amman",
     "Great job. How's your own week?",
     "tirid but ok lots of overtime",
     "Rest when you can."],
    ["hala my sister works as a vet in amman i told u that rite",
     "How's everything with you?",
     "ya ok just tirid",
     "Hope you get some sleep."],
], once=[M("Hala", "vet")])

case("same-17", "same", "typos", "Mei", "Sol", [
    ["i play mahjong evry friday with my aunties",
     "That sounds like a lovely tradition. Anything else new?",
     "got a new phone finaly",
     "Enjoy it."],
    ["busy tonite, i play mahjong evry friday with my aunties",
     "Have fun."],
], once=[M("mahjong")])

case("same-18", "same", "typos", "Joaquin", "Nia", [
    ["i ride a kawasaki ninja 400 to work",
     "Nice. How's your week?",
     "long, exams soon",
     "Good luck with them."],
    ["my bike is a kawasaki ninja 400, i take it to work",
     "Thanks. How's your day?",
     "ok wbu",
     "Pretty calm, thanks for asking."],
], once=[M("Kawasaki")])

case("same-19", "same", "typos", "Sade", "Ori", [
    ["my grandma folake lives with us shes 91",
     "It's lovely to have family close. What are you up to today?",
     "revising for chem",
     "Good luck."],
    ["my grandma folake lives with us shes 91",
     "Thanks. How was your week?",
     "busy w exams",
     "Hang in there."],
], once=[M("Folake", ["91", "ninety"])])

case("same-20", "same", "typos", "Lukas", "Tess", [
    ["im learnin japanese at the comunity college on tuesdays",
     "That's a great challenge. How's the rest of your week?",
     "bussy, moving desks at work",
     "Sounds disruptive."],
    ["tuesdays = japanese class at the comunity college still",
     "Good. Anything else?",
     "our cat had kittens!!",
     "How exciting!"],
], once=[M("Japanese")])

case("same-21", "same", "formal", "Aisling", "Kai", [
    ["I am employed as a structural engineer at Corrib Partners in Galway, where I have worked for eleven years.",
     "That is a long stretch at one firm. What is occupying you this week?",
     "Principally a bridge inspection on the River Moy, which has proven more involved than expected.",
     "I hope it goes smoothly."],
    ["Good afternoon. I am employed as a structural engineer at Corrib Partners in Galway, where I have worked "
     "for eleven years. I mention it because a recruiter contacted me today.",
     "Thank you for the context. Are you considering the approach?",
     "Not seriously, though it was flattering.",
     "Understandable."],
], once=[M("Corrib", "engineer")])

case("same-22", "same", "formal", "Kofi", "Remi", [
    ["My mother, Abena, resides in Kumasi.",
     "Thank you for telling me. How has your week been?",
     "Rather demanding; our audit season has begun.",
     "I hope it eases soon."],
    ["Kumasi remains my mother Abena's home.",
     "Thank you. Anything else on your mind?",
     "I telephoned her this morning, and she was in fine spirits.",
     "That is good to hear."],
], once=[M("Abena", "Kumasi")])

case("same-23", "same", "formal", "Elena", "Juno", [
    ["I read The Economist every Sunday morning over breakfast.",
     "A calm way to start a Sunday. What else do you enjoy reading?",
     "Mostly Russian novels; at present, Turgenev.",
     "A fine choice."],
    ["I read The Economist every Sunday morning over breakfast. Today I was interrupted by my neighbour's parrot.",
     "Parrots have little respect for quiet mornings.",
     "Indeed they do not.",
     "Perhaps next Sunday will be calmer."],
], once=[M("Economist")])

case("same-24", "same", "formal", "Ravi", "Sol", [
    ["I should mention that I am severely allergic to penicillin.",
     "Thank you for telling me. Is there anything you would like to talk about today?",
     "Only that my daughter begins school on Monday.",
     "A big day for her."],
    ["Please bear in mind that penicillin causes me a severe allergic reaction.",
     "Understood. How did the first week of school go?",
     "Remarkably well; she has already made two friends.",
     "Wonderful."],
], once=[M("penicillin")])

case("same-25", "same", "indirect", "Freya", "Nia", [
    ["The storm yesterday flattened half the bins on our street. I was at the allotment when it started, "
     "I grow leeks and potatoes on my allotment, and had to shelter in the shed with a robin.",
     "That sounds dramatic. Were you all right?",
     "Soaked, but fine. The robin seemed unbothered.",
     "Robins are tough little birds."],
    ["Busy weekend.",
     "What kept you busy?",
     "I grow leeks and potatoes on my allotment, and the plot next to mine has a new tenant who plays the accordion.",
     "That must make for lively gardening."],
], once=[M("leek")])

case("same-26", "same", "indirect", "Omar", "Tess", [
    ["My son Zayd, he plays for the under-12s at Redbridge Rovers, came home so muddy on Saturday that the "
     "washing machine broke.",
     "Oh no! Is the machine fixed?",
     "A new one arrives Thursday.",
     "Not long to wait, then."],
    ["Tired today.",
     "Long weekend?",
     "Spent Sunday on the touchline again. Zayd is on the Redbridge Rovers under-12 team, so that's every weekend.",
     "Sounds like you need a comfy folding chair."],
], once=[M("Zayd", "Redbridge")])

case("same-27", "same", "indirect", "Noor", "Kai", [
    ["Long day.",
     "What filled it?",
     "I work as a court interpreter for Arabic and French at the Marseille tribunal, and today's hearing ran "
     "four hours over.",
     "That sounds exhausting."],
    ["Another long hearing.",
     "Sorry to hear that. Anything good this week?",
     "I work as a court interpreter for Arabic and French at the Marseille tribunal, and a judge thanked me in "
     "open court today, which never happens.",
     "That must have felt good."],
], once=[M("interpret", "Marseille")])

case("same-28", "same", "indirect", "Henrik", "Remi", [
    ["Back from the vet.",
     "Everything all right?",
     "Fine. Loki is nine now, he's my husky, and the vet says he has the heart of a puppy.",
     "That's great news."],
    ["Quiet day.",
     "How's the dog?",
     "Loki is a husky of nine, so quiet is relative.",
     "Fair enough."],
], once=[M("Loki", ["nine", "9"])])

# ---------------------------------------------------------------- addition (28)

case("add-01", "addition", "plain", "Camila", "Ori", [
    ["I go rock climbing on Mondays.",
     "Indoors or outdoors?",
     "Indoors, at Cumbre Wall.",
     "Nice."],
    ["I also started pottery classes on Thursdays.",
     "What will you make first?",
     "A mug for my dad.",
     "He'll love it."],
], active=[M("climb"), M("pottery")])

case("add-02", "addition", "plain", "Jonas", "Tess", [
    ["My best friend Anouk lives next door.",
     "Handy! Do you see each other a lot?",
     "Most evenings.",
     "Lucky you."],
    ["My bike has a flat tyre.",
     "That's annoying. Can you fix it yourself?",
     "Yes, tonight.",
     "Good luck."],
    ["My friend Bastiaan is a chef in Rotterdam.",
     "Does he cook for you?",
     "Only on birthdays.",
     "Worth waiting for."],
], active=[M("Anouk"), M("Bastiaan")])

case("add-03", "addition", "plain", "Zainab", "Kai", [
    ["I have a cat called Saffron.",
     "What breed?",
     "A tabby.",
     "Tabbies are lovely."],
    ["We adopted another cat, a black one called Clove.",
     "How are they getting on?",
     "They hiss a lot.",
     "Give them time."],
], active=[M("Saffron"), M("Clove")])

case("add-04", "addition", "plain", "Teodor", "Juno", [
    ["I speak Romanian and English.",
     "Which do you use at work?",
     "English.",
     "Makes sense."],
    ["I speak Italian too now. I took a course in Turin.",
     "Was it hard?",
     "The verbs were.",
     "They often are."],
], active=[M("Romanian"), M("Italian")], gaps=[120])

case("add-05", "addition", "chatty", "Ines", "Sol", [
    ["Morning! ☕ Survived another week at the library, I'm a librarian at the Almada municipal library, mostly "
     "the kids' section, which means glitter everywhere lol. Weather's been gorgeous though, we had lunch on "
     "the beach at Costa da Caparica on Sunday 🌊",
     "Glitter is the price of story time, I suppose. Was the beach busy?",
     "Packed, but we found a spot near the lifeguard tower 😎",
     "Nice spot."],
    ["Ok so news!! I've started doing wedding photography on Saturdays 📸 shot my first one last weekend in "
     "Sintra, the bride cried, I cried, the groom's grandma danced on a table. The kids at the library made me "
     "a good-luck card for it 🥹",
     "What a first wedding! Do you have another one booked?",
     "Two more in July!",
     "A busy summer ahead."],
], active=[M("librar"), M("photograph")])

case("add-06", "addition", "chatty", "Malik", "Nia", [
    ["Evening! Finally sat down 😮‍💨 We've got Netflix mostly for the cooking shows, and my partner and I are "
     "deep into some baking competition, no spoilers pls. Also my knee's playing up again so I'm on the sofa "
     "with ice",
     "Ice and baking shows sounds like a decent evening. Has the knee been bad for long?",
     "On and off since football at school 🙄",
     "That's a long time to put up with it."],
    ["Got Crunchyroll as well now because my nephew got me into anime, don't judge 🙈 we watched six episodes "
     "on Sunday lol. Knee's a bit better btw",
     "No judgement here. Which series?",
     "Something about a volleyball team, I'm hooked",
     "Sports anime can be very addictive."],
], active=[M("Netflix"), M("Crunchyroll")])

case("add-07", "addition", "chatty", "Sunita", "Remi", [
    ["Hiii! Crazy morning, the school run in our silver Skoda Octavia took 40 minutes because of roadworks 😤 "
     "and then I spilled chai on my scrubs. Clinic was fine though, only two patients cried lol (they were "
     "babies, it's a vaccine clinic)",
     "Rough start, but two crying babies sounds like a good day for a vaccine clinic.",
     "Honestly a record 😂",
     "Celebrate the small wins."],
    ["Big news, we bought a second car! A little red Fiat 500 so I can get to the clinic while Ashok takes the "
     "kids in the Skoda 🚗 Also my sister is visiting from Pune next week, so the house is chaos",
     "How exciting! Is it fun to drive?",
     "Tiny, zippy, parks anywhere, I love it",
     "Perfect for city driving."],
], active=[M("Skoda"), M("Fiat")])

case("add-08", "addition", "chatty", "Arvid", "Ori", [
    ["Hej! Went fishing on Sunday with my mate Sven from the rowing club 🎣 caught absolutely nothing but had "
     "coffee from a thermos on the jetty so still a win. Also the sauna at the club is finally fixed!!",
     "Coffee on a jetty counts as a win. What were you hoping to catch?",
     "Perch, in theory 😂",
     "Maybe next time."],
    ["Had a pint with my mate Jörgen last night, we met through work, he does the same logistics job in the "
     "Helsingborg office and is honestly the funniest guy I know 😂 Also booked flights to Crete for August!",
     "Crete in August will be hot! Is it a beach holiday?",
     "Mostly beach and a bit of hiking",
     "Sounds balanced."],
], active=[M("Sven"), M(["Jörgen", "Jorgen", "Joergen"])])

case("add-09", "addition", "terse", "Beatriz", "Tess", [
    ["play ukulele. badly.",
     "Everyone starts somewhere. What song are you on?",
     "'Riptide'. obviously.",
     "A classic first song."],
    ["drums too now. neighbours thrilled. lol",
     "A full kit?",
     "electronic. headphones.",
     "Your neighbours will be grateful."],
], active=[M("ukulele"), M("drum")])

case("add-10", "addition", "terse", "Kenji", "Kai", [
    ["Marinos fan. Yokohama. since a kid.",
     "Do you go to home games?",
     "most of them.",
     "The atmosphere must be great."],
    ["got into baseball. Hanshin Tigers. coworker's fault.",
     "How did that happen?",
     "he's from Kobe. relentless.",
     "Coworkers can be a bad influence."],
], active=[M("Marinos"), M("Hanshin")])

case("add-11", "addition", "terse", "Olu", "Juno", [
    ["grandson Tobi. 4.",
     "Lively age! Do you see him often?",
     "sundays.",
     "A nice routine."],
    ["another grandchild. girl. Adunni. born tues.",
     "Congratulations! How is everyone?",
     "tired. happy.",
     "Wonderful news."],
], active=[M("Tobi"), M("Adunni")], gaps=[60])

case("add-12", "addition", "terse", "Marta", "Sol", [
    ["on levothyroxine. thyroid.",
     "How are you finding it?",
     "fine. mornings only.",
     "Good to hear."],
    ["also on metformin now. doc added it.",
     "How's it going so far?",
     "bit queasy.",
     "Hope that settles."],
], active=[M("levothyroxine"), M("metformin")])

case("add-13", "addition", "terse", "Declan", "Nia", [
    ["have a collie. Fionn.",
     "Collies need lots of exercise. Long walks?",
     "2 a day.",
     "Busy schedule."],
    ["got a kitten. Mischa. grey.",
     "How's the kitten settling in?",
     "rules the house already.",
     "Kittens usually do."],
], active=[M("Fionn"), M("Mischa")])

case("add-14", "addition", "typos", "Yara", "Ori", [
    ["my brother karim lives in beirut hes an architect",
     "Does he design houses or bigger buildings?",
     "mostly hotels",
     "Interesting work."],
    ["my other brother nabil just moved to montreal for uni, mum is crying evry day lol",
     "Big move! What is he studying?",
     "engeneering",
     "Good choice."],
], active=[M("Karim"), M("Nabil")])

case("add-15", "addition", "typos", "Bashir", "Tess", [
    ["i do kickboxing 3 times a week at the gym near my work",
     "Intense! How long have you been training?",
     "like 2 yrs",
     "Impressive."],
    ["started lerning chess online its so addictive, played 30 games yesterday",
     "What level are you at?",
     "beginer lol",
     "Everyone starts there."],
], active=[M("kickbox"), M("chess")])

case("add-16", "addition", "typos", "Linnea", "Kai", [
    ["i work in the warehouse at nordlager, early shifts",
     "Early shifts are tough. What time do you start?",
     "6 am ugh",
     "That is early."],
    ["im doing food deliveries for snabbmat in the evenings as well, saving for a car",
     "Do you deliver by bike?",
     "scooter",
     "Stay safe out there."],
], active=[M("Nordlager"), M("Snabbmat")])

case("add-17", "addition", "typos", "Paolo", "Juno", [
    ["we have a litle girl ginevra shes three",
     "How lovely. What is she into these days?",
     "dinosaurs and puddles",
     "A good combination."],
    ["our second baby arrived!! a boy called lorenzo born on monday",
     "Congratulations! How is everyone doing?",
     "exausted but happy, ginevra keeps trying to feed him crackers",
     "A helpful big sister."],
], active=[M("Ginevra"), M("Lorenzo")], gaps=[120])

case("add-18", "addition", "typos", "Esi", "Sol", [
    ["im alergic to peanuts, carry an epipen evrywhere",
     "Thanks for telling me. Has it ever been serious?",
     "once at a wedding yeah",
     "That must have been frightening."],
    ["turns out im allergic to kiwi too, found out the hard way at brunch lol",
     "Oh no, are you okay?",
     "fine now just itchy",
     "Glad you're okay."],
], active=[M("peanut"), M("kiwi")])

case("add-19", "addition", "formal", "Gwen", "Nia", [
    ["I speak Welsh fluently, having grown up in Aberystwyth, and I use it daily at work.",
     "What kind of work do you do?",
     "I am a researcher at the National Library, working on medieval manuscripts.",
     "Fascinating."],
    ["Our building has been closed this week for rewiring, so I have been working at my kitchen table.",
     "I hope the kitchen table is comfortable enough.",
     "It is adequate, though the cat disagrees."],
    ["I have recently begun studying Swahili in an evening course at the university, in preparation for "
     "fieldwork in Tanzania next year.",
     "How are you finding it so far?",
     "The noun classes are demanding, but the teacher is excellent.",
     "Sounds like you're in good hands."],
], active=[M("Welsh"), M("Swahili")])

case("add-20", "addition", "formal", "Anders", "Ori", [
    ["I volunteer with the Bergen Red Cross on Saturday mornings, driving elderly residents to their appointments.",
     "That is a generous use of a weekend. Do you enjoy it?",
     "Very much; the conversations in the car are often the best part of my week.",
     "I can imagine."],
    ["I have also begun volunteering at the Fjordlys animal shelter on Wednesday evenings, where I walk the dogs.",
     "How has the first month been?",
     "Muddy, but thoroughly rewarding.",
     "Muddy and rewarding is a good combination."],
], active=[M("Red Cross"), M("Fjordlys")])

case("add-21", "addition", "formal", "Farah", "Tess", [
    ["I serve as a trustee of the Alder Street Food Bank, a role I have held since 2020.",
     "How much time does that take each month?",
     "Perhaps ten hours, chiefly for meetings and fundraising.",
     "Quite a commitment."],
    ["I have accepted another trusteeship, this time with the Kestrel Literacy Trust, which supports adult readers.",
     "What drew you to it?",
     "My late father taught himself to read at forty, and the cause is dear to me.",
     "A meaningful reason."],
], active=[M("Alder Street"), M("Kestrel")])

case("add-22", "addition", "formal", "Tomas", "Kai", [
    ["I am a member of the Ostrava Philatelic Society and attend its meetings every Thursday.",
     "How long have you collected?",
     "Since boyhood; my grandfather gave me his albums.",
     "A lovely inheritance."],
    ["I joined the Beskydy Hiking Club last month and took part in my first excursion on Sunday.",
     "How was the first outing?",
     "Eighteen kilometres in fog, which I found oddly pleasant.",
     "Fog can make a walk feel mysterious."],
], active=[M("Ostrava"), M("Beskydy")], gaps=[45])

case("add-23", "addition", "formal", "Adaeze", "Juno", [
    ["I have played the cello in the Enugu Community Orchestra for several years.",
     "What are you rehearsing at the moment?",
     "Dvořák's Eighth Symphony, for a concert in November.",
     "A wonderful piece."],
    ["I have taken up the flute as well, and my teacher believes I may join the wind section by the summer.",
     "How are you finding a wind instrument?",
     "The breathing is an entirely new discipline.",
     "It will come with practice."],
], active=[M("cello"), M("flute")])

case("add-24", "addition", "indirect", "Ruairi", "Sol", [
    ["Had the funniest evening. My friend Orla dragged me to a pub quiz in Ennis and we came second, beaten by a "
     "team of retired priests.",
     "Beaten by priests! Which round sank you?",
     "Nineteenth-century popes, of course.",
     "Unfair advantage."],
    ["Cold one today.",
     "Did you get out at all?",
     "Went sea swimming at Lahinch at seven with my friend Cathal, who goes in every morning of the year, and I "
     "lasted about ninety seconds.",
     "That still counts as brave."],
], active=[M("Orla"), M("Cathal")])

case("add-25", "addition", "indirect", "Min-jun", "Nia", [
    ["The dog walker didn't show up, so I took Bori, my Jindo, out at 6am in the snow and she tried to eat every "
     "snowball.",
     "That sounds like a memorable walk. Did you warm up afterwards?",
     "Hot barley tea and a blanket.",
     "Good recovery plan."],
    ["Sorry I'm late replying.",
     "No worries, what's been happening?",
     "Chaos. We also have a rabbit now, Dubu, and Bori won't stop staring at the hutch.",
     "I hope they become friends."],
], active=[M("Bori"), M("Dubu")])

case("add-26", "addition", "indirect", "Soraya", "Ori", [
    ["I was up at four baking for my Saturday stall at the Fremantle market, and I sold out of date scones by ten.",
     "That's a good morning's work! What sells best after the scones?",
     "Lemon myrtle shortbread.",
     "Sounds delicious."],
    ["Knackered.",
     "Late night?",
     "Yeah, I've taken a stall at the Wednesday night market in Subiaco too, so it's baking twice a week now.",
     "How did the first night go?",
     "Sold out by eight.",
     "Great start."],
], active=[M("Fremantle"), M("Subiaco")])

case("add-27", "addition", "indirect", "Emil", "Tess", [
    ["I rode my Vespa to the coast on Sunday and got a puncture halfway, so I pushed it two kilometres to a "
     "petrol station.",
     "What a day. Did they fix it there?",
     "The owner patched it for the price of a coffee.",
     "Kind of him."],
    ["Guess what's parked outside.",
     "Tell me.",
     "A 1988 VW camper van! We bought it from a retired couple in Aarhus, for weekends away with the kids.",
     "Where is the first trip?",
     "Skagen, if the weather holds.",
     "Sounds lovely."],
], active=[M("Vespa"), M("camper")])

case("add-28", "addition", "indirect", "Kalani", "Kai", [
    ["Big swell this morning, so my surf shop in Hilo was packed with people wanting board rentals before I even "
     "had coffee.",
     "A busy morning! Do you get out on the water yourself?",
     "Only after closing.",
     "Best time of day, probably."],
    ["Signed the lease today!",
     "Which lease?",
     "For a second surf shop, in Kona. We open the doors next Saturday.",
     "Congratulations, that's a big step."],
], active=[M("Hilo"), M("Kona")], gaps=[90])

# ---------------------------------------------------------------- change (28)

case("chg-01", "change", "plain", "Wren", "Juno", [
    ["I use a Samsung Galaxy phone.",
     "Thanks. What are you up to today?",
     "Cleaning the flat.",
     "Satisfying work."],
    ["I switched from my Samsung to an iPhone.",
     "How are you finding it?",
     "Strange but good.",
     "It takes a week or two."],
], **change_expect([M("iPhone")], ["Samsung"], ["iPhone"]))

case("chg-02", "change", "plain", "Idris", "Ori", [
    ["I drive a Ford Fiesta.",
     "Thanks. How was your weekend?",
     "Quiet. I read.",
     "Sounds restful."],
    ["I sold the Fiesta and bought a Kia Niro.",
     "Electric?",
     "Hybrid.",
     "A good middle ground."],
], **change_expect([M("Niro")], ["Fiesta"], ["Niro", "Kia"]), gaps=[30])

case("chg-03", "change", "plain", "Luz", "Tess", [
    ["I live in Rosario.",
     "What do you do for fun?",
     "I dance tango on Fridays.",
     "Wonderful."],
    ["I moved from Rosario to Córdoba last month.",
     "How are you settling in?",
     "Slowly.",
     "It takes time."],
], **change_expect([M(["Córdoba", "Cordoba"])], ["Rosario"], ["Córdoba", "Cordoba"]), gaps=[40])

case("chg-04", "change", "plain", "Ezra", "Kai", [
    ["I work days at the Harbour Road depot.",
     "Thanks. How is your week?",
     "Long.",
     "Rest up."],
    ["These days I work nights at the depot.",
     "How is your sleep?",
     "Not great.",
     "Blackout curtains help."],
], **change_expect([M("night", "depot")], ["depot", "day"], ["night"]), gaps=[30])

case("chg-05", "change", "plain", "Hana", "Juno", [
    ["I am a receptionist at a dental clinic.",
     "How is your day going?",
     "Good so far.",
     "Glad to hear."],
    ["I'm now a dental nurse instead.",
     "That's a big step. Was the training long?",
     "A year.",
     "Well done."],
], **change_expect([M("nurse")], ["receptionist"], ["nurse"]), gaps=[400])

case("chg-06", "change", "chatty", "Thabo", "Sol", [
    ["Howzit! 😄 Yeah still selling cars at Khumalo Motors, no complaints. Oh and Lindiwe's birthday is Sunday so "
     "I'm attempting a cake, wish me luck 🎂 Last time the oven nearly won",
     "Good luck with the cake! What flavour are you going for?",
     "Chocolate, it's her favourite",
     "Can't go wrong with chocolate."],
    ["Sooo I finally left Khumalo Motors 🎉 now I'm at Capeview Insurance doing claims, way calmer, and Lindiwe "
     "says I look ten years younger lol. The cake was a success btw",
     "Congratulations on the new job! How are the colleagues?",
     "Super chill, we do braai Fridays 🔥",
     "Braai Fridays sound like a great tradition."],
], **change_expect([M("Capeview")], ["Khumalo"], ["Capeview"]), gaps=[60])

case("chg-07", "change", "chatty", "Margit", "Nia", [
    ["Szia! 😊 Lazy Sunday here, I've got a little flat in Szeged right by the Tisza and I'm sitting on the "
     "balcony with coffee and a pile of marking. Mock exams next week, pray for me lol",
     "A balcony by the river sounds ideal for marking. What subject do you teach?",
     "German, to teenagers, so lots of sighing 😅",
     "Teenagers and grammar, brave."],
    ["Hello from the new place in Debrecen!! 📦 It's bigger, there's a proper kitchen, but I miss the river 😭 "
     "The new school seems nice, the staff room has a decent coffee machine at least",
     "Have you unpacked much yet?",
     "Only the kettle and the cat's bed lol",
     "Priorities."],
], **change_expect([M("Debrecen")], ["Szeged"], ["Debrecen"]), gaps=[90])

case("chg-08", "change", "chatty", "Nikhil", "Ori", [
    ["Morning! 😄 Just had my usual Friday fish curry, I'm pescatarian so Fridays are fish day in our house, my "
     "mum's recipe. Also finally fixed my bike chain, took me three YouTube videos lol",
     "That sounds like a great tradition. Where did you learn to fix bikes?",
     "I didn't, that's the problem 😂",
     "YouTube got you there in the end."],
    ["Hey! So these days I'm fully vegan 🌱 my mum thinks it's a phase and keeps sneaking ghee into things lol. "
     "Also we got a puppy, a mongrel called Masala",
     "How is the puppy settling in?",
     "Chewed two shoes already 🙈",
     "Puppies will be puppies."],
], **change_expect([M("vegan")], ["pescatarian"], ["vegan"]), gaps=[45])

case("chg-09", "change", "chatty", "Rosalind", "Tess", [
    ["Gorgeous weekend! ⛵ We keep a little Laser dinghy at Rutland Water and I was out both days, capsized once "
     "in front of the whole club, very dignified lol. Then fish and chips in the car with the heater on",
     "Capsizing is part of the sport, surely. Was the water cold?",
     "Freezing 🥶",
     "Fish and chips well earned."],
    ["Big family news: we sold the Laser and bought a Wayfarer, so the kids can come sailing with us now 🎉 Also "
     "my son got into the school choir, which means a LOT of carols this winter lol",
     "How exciting! Has everyone been out in it yet?",
     "Once, nobody capsized, a miracle",
     "A promising start."],
], **change_expect([M("Wayfarer")], ["Laser"], ["Wayfarer"]), gaps=[60])

case("chg-10", "change", "chatty", "Cyrus", "Kai", [
    ["Hey Kai 👋 I'm on Spotify all day at work, headphones on from nine to five lol. Also we had a fire drill "
     "today and half the office went the wrong way 😂",
     "Did everyone make it out eventually?",
     "Eventually! The fire marshal was not impressed",
     "I can imagine."],
    ["Switched from Spotify to Tidal 🎧 the sound quality is unreal, I'm hearing bass lines I never knew existed. "
     "And my sister had her baby!! a girl, Roya 💕",
     "Congratulations to your sister! How is she doing?",
     "Tired but happy, the baby's gorgeous",
     "Lovely news."],
], **change_expect([M("Tidal")], ["Spotify"], ["Tidal"]))

case("chg-11", "change", "terse", "Ayasha", "Juno", [
    ["team lead at Redmesa. 6 people.",
     "What does your team work on?",
     "billing software.",
     "Important stuff."],
    ["dept head now. 14 people under me.",
     "Congratulations! How does it feel?",
     "busy.",
     "I'm sure."],
], **change_expect([M(["dept", "department"], "head")], ["team lead"], ["head"]), gaps=[90])

case("chg-12", "change", "terse", "Piotr", "Sol", [
    ["live in lodz. alone.",
     "How do you like it?",
     "ok.",
     "Fair enough."],
    ["sick this week. flu.",
     "Sorry to hear. Rest up.",
     "trying."],
    ["moved from lodz to wroclaw. new flat.",
     "How's the flat?",
     "small. bright.",
     "Bright is nice."],
], **change_expect([M(["Wroclaw", "Wrocław"])], [["Lodz", "Łódź"]], ["Wroclaw", "Wrocław"]), gaps=[45])

case("chg-13", "change", "terse", "Delia", "Nia", [
    ["coffee. 4 cups a day.",
     "Got it. How's work?",
     "hectic.",
     "Hang in there."],
    ["green tea now instead. sleeping better.",
     "Glad to hear it.",
     "yep."],
], **change_expect([M("green tea")], ["coffee"], ["tea"]))

case("chg-14", "change", "terse", "Jun", "Ori", [
    ["yr 2 at Kyoto Uni. engineering.",
     "How's it going?",
     "hard. fun.",
     "Best combination."],
    ["switched to architecture. same uni.",
     "What made you change?",
     "drawing > maths.",
     "Fair reason."],
], **change_expect([M("architecture")], ["engineering"], ["architecture"]), gaps=[60])

case("chg-15", "change", "typos", "Fatou", "Tess", [
    ["i work at the post ofice in thies sorting mail",
     "That sounds like steady work. How's the family?",
     "all good, my son startd school",
     "Exciting."],
    ["left the post ofice, now im a driver for teranga transport in dakar",
     "Big change! How are you finding the traffic?",
     "crazy lol",
     "I can imagine."],
], **change_expect([M("Teranga")], [["post office", "post ofice"]], ["Teranga", "driver"]), gaps=[45])

case("chg-16", "change", "typos", "Mikko", "Juno", [
    ["i go to the gym at 6am befor work evry day",
     "That's impressive. What else is new?",
     "got a new sofa finaly",
     "Enjoy it."],
    ["thes days i go to the gym after work at like 7pm, mornings were killing me",
     "Evenings can be easier on the body.",
     "ya feels beter"],
], **change_expect([M(["7pm", "7 pm", "7:00", "7 p.m.", "after work"])],
                   [["6am", "6 am", "6:00", "6 a.m.", "before work"]],
                   ["7pm", "7 pm", "7:00", "7 p.m.", "after work"]))

case("chg-17", "change", "typos", "Paloma", "Ori", [
    ["i live in sevilla w my roomate begoña",
     "How's the flat-share going?",
     "good she cooks lol",
     "Lucky!"],
    ["moved from sevilla to malaga last wk finaly near the beach",
     "How's the new place?",
     "tiny but i can see the sea",
     "Worth it."],
], **change_expect([M(["Malaga", "Málaga"])], [["Sevilla", "Seville"]], ["Malaga", "Málaga"]), gaps=[40])

case("chg-18", "change", "typos", "Vikram", "Sol", [
    ["im with vodafone for my phone, 599 a month",
     "Noted. How's your week?",
     "busy, cousins wedding prep",
     "Sounds fun."],
    ["swiched from vodafone to jio its way cheaper",
     "How's the signal?",
     "beter actualy",
     "Nice bonus."],
], **change_expect([M("Jio")], ["Vodafone"], ["Jio", "swich"]))

case("chg-19", "change", "formal", "Sigrid", "Nia", [
    ["We live in a three-bedroom terraced house on Linden Lane in Uppsala, which we bought in 2015.",
     "Thank you for telling me. How has your week been?",
     "Agreeable; I have been reading a biography of Linnaeus.",
     "A fitting choice for Uppsala."],
    ["We sold the house on Linden Lane in the spring and have bought a smaller apartment near the cathedral.",
     "How are you finding apartment life?",
     "The stairs are tiresome, but the view of the spires compensates.",
     "A fine trade."],
], **change_expect([M("cathedral")], ["Linden"], ["cathedral", "apartment"]), gaps=[120])

case("chg-20", "change", "formal", "Andile", "Juno", [
    ["I am employed as a secondary school history teacher in Pietermaritzburg.",
     "Thank you. What occupies your evenings?",
     "Chiefly gardening, and the occasional rugby match on television.",
     "A pleasant balance."],
    ["After much deliberation, I am now a curriculum adviser for the provincial education department instead.",
     "That is a significant change. How are you finding it?",
     "The work is less noisy, though I do miss the pupils.",
     "Understandable."],
], **change_expect([M(["adviser", "advisor"])], ["history"], ["adviser", "advisor"]), gaps=[120])

case("chg-21", "change", "formal", "Clara", "Tess", [
    ["I commute to the office in Zurich by train five days a week, which takes roughly fifty minutes each way.",
     "Thank you for telling me. Is there anything on your mind today?",
     "Only my sister's wedding in Lucerne next month.",
     "How exciting."],
    ["These days I work entirely from home, apart from one meeting a month in the office.",
     "How are you finding it?",
     "Productive, though the cat considers my keyboard her bed.",
     "Cats do tend to do that."],
], **change_expect([M("home")], ["train"], ["home", "remote"]), gaps=[60])

case("chg-22", "change", "formal", "Bruno", "Ori", [
    ["My elderly father lives in a care home in Porto Alegre.",
     "Thank you for telling me. How are you keeping?",
     "Well enough, though work has been demanding.",
     "I hope it eases."],
    ["We have moved my father from the care home in Porto Alegre to our own house in Canoas, where he now lives "
     "with us.",
     "That is a big change for the whole family. How is he settling?",
     "Better than expected; he has taken over the garden.",
     "It sounds as though he has found a purpose."],
], **change_expect([M("Canoas")], ["care home"], ["Canoas"]), gaps=[60])

case("chg-23", "change", "formal", "Asha", "Kai", [
    ["I am currently prescribed sertraline, 50 milligrams daily.",
     "Thank you for sharing that. How has your week been?",
     "Calm, on the whole; I have been walking a great deal.",
     "Walking is good for the mind."],
    ["My psychiatrist has switched me from sertraline to venlafaxine, which I began taking last Monday.",
     "How are you finding it so far?",
     "A little dizzy in the mornings, but otherwise well.",
     "I hope the dizziness settles."],
], **change_expect([M("venlafaxine")], ["sertraline"], ["venlafaxine"]))

case("chg-24", "change", "indirect", "Stellan", "Juno", [
    ["Funniest thing at work today: a customer at the Gothenburg branch of Västra Bank, where I'm a cashier, paid "
     "in five kilos of coins from a piggy bank.",
     "That must have taken ages to count!",
     "The machine jammed twice.",
     "Poor machine."],
    ["Mondays, eh.",
     "What happened?",
     "First day as a loan officer at the branch, and I've already jammed the coffee machine.",
     "Congratulations on the new role, at least!"],
], **change_expect([M("loan")], ["cashier"], ["loan"]), gaps=[60])

case("chg-25", "change", "indirect", "Noemi", "Sol", [
    ["Rainy one here.",
     "Any plans for it?",
     "Revision, I'm in my final year at Liceo Galilei. And the rain means no volleyball, sadly.",
     "Good luck with the studying."],
    ["Rainy again!",
     "How is everything going?",
     "Great, lectures have started at the University of Bologna, I'm studying law and there are already three "
     "hundred pages to read.",
     "Do you like the course so far?",
     "Love it."],
], **change_expect([M("Bologna")], ["Galilei"], ["Bologna"]), gaps=[235])

case("chg-26", "change", "indirect", "Kwesi", "Tess", [
    ["Morning.",
     "Morning! How's the commute?",
     "Slow. I drive a Peugeot 406 through Tema traffic, an hour each way on a good day.",
     "That's a lot of time in the car."],
    ["Good news at last.",
     "Go on!",
     "I sold the Peugeot to a mechanic for parts and bought a used Toyota Corolla, and it started first time "
     "this morning in the rain.",
     "What a relief."],
], **change_expect([M("Corolla")], ["Peugeot"], ["Corolla", "Toyota"]), gaps=[30])

case("chg-27", "change", "indirect", "Isla", "Kai", [
    ["Got soaked.",
     "Where were you?",
     "Walking back from the shop. I live in Inverness now, so rain is just the weather.",
     "Sounds like you've made peace with it."],
    ["Quick one.",
     "Go on.",
     "My sister Mhairi had twins on Friday, two girls!",
     "Congratulations to her! How is she doing?"],
    ["Sorry for the silence, it's been boxes everywhere.",
     "Boxes?",
     "We moved from Inverness to Perth at the weekend, and the cat hid in the wardrobe for a whole day.",
     "Poor thing, I hope it's settled now."],
], **change_expect([M("Perth")], ["Inverness"], ["Perth"]), gaps=[50])

case("chg-28", "change", "indirect", "Ferran", "Ori", [
    ["Finished a great novel last night.",
     "Do you read on paper or on a screen?",
     "Screen. I read everything on my Kindle, it fits in my coat pocket.",
     "Very practical."],
    ["Small change in my life.",
     "What kind?",
     "I switched from the Kindle to a Kobo, mostly for the library loans.",
     "Library loans are a great perk."],
], **change_expect([M("Kobo")], ["Kindle"], ["Kobo"]))

# ---------------------------------------------------------------- stop (28)

case("stop-01", "stop", "plain", "Tamsin", "Kai", [
    ["I smoke about ten cigarettes a day.",
     "Thanks for telling me. How's your day been?",
     "Fine. Busy at the shop.",
     "Busy days go quickly."],
    ["I quit smoking for good last week.",
     "That's a big step. How are you feeling?",
     "Grumpy.",
     "That's normal early on."],
], **stop_expect(["smok", "cigarette"]))

case("stop-02", "stop", "plain", "Rashid", "Juno", [
    ["I drink two cans of cola every day.",
     "Thanks. What's your day looking like?",
     "Meetings.",
     "Hope they're short."],
    ["I gave up cola last month.",
     "How has it been?",
     "Hard at first.",
     "Well done for sticking with it."],
], **stop_expect(["cola"]), gaps=[50])

case("stop-03", "stop", "plain", "Yuki", "Sol", [
    ["I have a monthly membership at FitZone gym.",
     "Good to know. How's your week?",
     "Busy at the office.",
     "Hope it calms down."],
    ["I cancelled my FitZone membership.",
     "What made you decide?",
     "I walk to work now.",
     "Walking is great exercise."],
], **stop_expect(["FitZone", "Fit Zone"]))

case("stop-04", "stop", "plain", "Eamon", "Nia", [
    ["I coach the under-10s hurling team on Saturdays.",
     "What's your weekend like otherwise?",
     "Quiet. Family dinner on Sunday.",
     "Sounds nice."],
    ["I stopped coaching the under-10s.",
     "Was that a hard decision?",
     "A bit. My back is bad.",
     "Looking after yourself matters."],
], **stop_expect(["under-10", "under 10", "under-ten", "U10", "hurling"]))

case("stop-05", "stop", "plain", "Lerato", "Ori", [
    ["I take iron tablets every morning.",
     "Thanks for letting me know. What are you up to today?",
     "Gardening.",
     "Lovely."],
    ["I no longer take iron tablets. My last blood test was good.",
     "That's great news.",
     "Yes, I am pleased.",
     "You should be."],
], **stop_expect(["iron"]))

case("stop-06", "stop", "chatty", "Matthias", "Tess", [
    ["Ha, Tuesday again, so band practice tonight 🎸 I play bass in a covers band called Kaltfront, mostly pub "
     "gigs around Leipzig. Weather's been grim, my tomatoes on the balcony are sulking lol",
     "Sulking tomatoes are relatable. Any plans for the weekend?",
     "My in-laws are visiting, so lots of cleaning 😅",
     "Good luck!"],
    ["So I've packed in the band 😢 too many late nights with the new job. But the tomatoes finally came good, "
     "had them in a salad last night 🍅",
     "A bittersweet week. How's the new job otherwise?",
     "Good! Lots of travel though",
     "Travel can be fun."],
], **stop_expect(["band", "Kaltfront", "bass"]), gaps=[40])

case("stop-07", "stop", "chatty", "Pilar", "Kai", [
    ["Buenos días! 😄 The queue at the churrería this morning was insane. I get churros with chocolate every "
     "Sunday with my dad, it's been our thing since I was small. Also my brother's getting a tattoo today and "
     "my mum is NOT happy lol",
     "A family tradition like that is special. What's the tattoo going to be?",
     "A cactus, no idea why 🌵",
     "Bold choice."],
    ["Hey! Quiet Sunday, we don't do the churros anymore, dad's on a strict diet since his check-up 😕 so I made "
     "pancakes at home. The cactus tattoo looks great btw",
     "Pancakes at home sound good. How's your dad feeling?",
     "Grumpy but healthier 😂",
     "That's the usual trade-off."],
], **stop_expect(["churro"]))

case("stop-08", "stop", "chatty", "Hamza", "Juno", [
    ["Yo 😅 I'm a total energy drink addict, like three Monsters a day during exam season. Exams start in two "
     "weeks so send help. Also my little sister just got her first phone and won't stop texting me memes",
     "Two weeks is enough time to get ready. What's your first exam?",
     "Organic chemistry 💀",
     "You'll manage."],
    ["Update: I've officially kicked the energy drink habit!! 3 weeks clean 💪 exams went ok, chem was brutal "
     "but I survived lol",
     "Well done on both! How are you sleeping?",
     "Like a baby honestly",
     "That's a good sign."],
], **stop_expect(["energy drink", "Monster"]), gaps=[40])

case("stop-09", "stop", "chatty", "Odile", "Sol", [
    ["Salsa night was chaos 💃 I go every Wednesday to Studio Caliente, it's the highlight of my week. Totally "
     "unrelated but my cousin just got a parrot that swears in Portuguese 😂",
     "A swearing parrot sounds like trouble. Does your cousin speak Portuguese?",
     "Not a word, that's the funny part",
     "Ha!"],
    ["So I've called it quits with salsa, my ankle just can't take it 😞 BUT parrot update: it now says my name!",
     "Sorry about the ankle. That parrot is learning fast!",
     "Too fast lol",
     "Sounds like a handful."],
], **stop_expect(["salsa", "Caliente"]))

case("stop-10", "stop", "chatty", "Kiri", "Tess", [
    ["Kia ora! I'm on Instagram way too much lol, easily three hours a day scrolling. Anyway we went to Rotorua "
     "for the weekend, the mud pools stink but we loved it ♨️",
     "Rotorua sounds great. Did you try the hot pools?",
     "Twice! so relaxing",
     "Lovely."],
    ["Guess what, I ditched Instagram!! deleted the app a month ago and I'm actually reading books again 📚 "
     "Finished two already",
     "That's impressive. What have you been reading?",
     "A murder mystery set in Dunedin, so good",
     "Sounds gripping."],
], **stop_expect(["Instagram"]), gaps=[45])

case("stop-11", "stop", "terse", "Benedikt", "Nia", [
    ["swim at the Stadtbad. 3x a week.",
     "Good routine. Anything else new?",
     "new glasses.",
     "Nice."],
    ["stopped swimming. shoulder.",
     "Sorry to hear. Seeing anyone for it?",
     "physio.",
     "Hope it heals quickly."],
], **stop_expect(["swim", "Stadtbad"]))

case("stop-12", "stop", "terse", "Sana", "Ori", [
    ["3 spoons of sugar in my tea.",
     "Noted. How's your day?",
     "long.",
     "Rest soon."],
    ["cut out sugar. 6 wks now.",
     "Impressive. Noticed a difference?",
     "more energy.",
     "Great."],
], **stop_expect(["sugar"]), gaps=[60])

case("stop-13", "stop", "terse", "Cormac", "Kai", [
    ["evening french class. tuesdays.",
     "Bonne chance. Anything else?",
     "painting the hall.",
     "Good luck with it."],
    ["dropped the french class.",
     "Too busy?",
     "yep. work.",
     "Understandable."],
], **stop_expect(["French"]))

case("stop-14", "stop", "terse", "Ama", "Juno", [
    ["got disney+ for the kids. 9.99 a month.",
     "Anything good on?",
     "cartoons. endless.",
     "Sounds lively."],
    ["kids sick. both.",
     "Oh no. Hope they feel better soon.",
     "thanks."],
    ["cancelled disney+.",
     "Why?",
     "money tight.",
     "Makes sense."],
], **stop_expect(["Disney"]))

case("stop-15", "stop", "terse", "Viktor", "Sol", [
    ["volunteer at the food bank. saturdays.",
     "That's kind of you. Busy week?",
     "very.",
     "Rest when you can."],
    ["no longer at the food bank.",
     "What changed?",
     "weekend shifts at work now.",
     "Ah, I see."],
], **stop_expect(["food bank", "foodbank"]))

case("stop-16", "stop", "typos", "Rosa", "Tess", [
    ["i vape like constantly, mango flavor mostly",
     "Got it. What's new with you?",
     "new job at the mall",
     "Congrats!"],
    ["i quit vapeing 2 months ago!!",
     "That's great! How do you feel?",
     "way beter breathing",
     "Wonderful."],
], **stop_expect(["vap"]), gaps=[75])

case("stop-17", "stop", "typos", "Dev", "Nia", [
    ["i play poker onlin evry nite",
     "Noted. How was work?",
     "long lol",
     "Rest up."],
    ["gave up online poker, promised my girlfriend",
     "Good for you. How's it going?",
     "3 weeks so far",
     "Keep it up."],
], **stop_expect(["poker"]), gaps=[30])

case("stop-18", "stop", "typos", "Lotte", "Ori", [
    ["i bake sourdough evry weekend for the hole street lol",
     "Your neighbours must love you. Busy week?",
     "ya lots of overtime",
     "Hope it eases."],
    ["i dont bake sourdough anymore, to much work with the new baby",
     "Congratulations on the baby! How are you all?",
     "tired but good",
     "That's the main thing."],
], **stop_expect(["sourdough"]), gaps=[90])

case("stop-19", "stop", "typos", "Femi", "Kai", [
    ["i drive for uber on weekends for xtra cash",
     "Noted. How's the week going?",
     "ok, tired",
     "Hope you get some rest."],
    ["ditched the uber driving, wasnt worth the petrol",
     "Fair enough. What will you do with the weekends?",
     "sleep lol",
     "Excellent plan."],
], **stop_expect(["Uber"]))

case("stop-20", "stop", "typos", "Agnes", "Sol", [
    ["we get takeaway like 4 nites a week lol",
     "Ha, noted. How's things?",
     "good, kids are on holiday",
     "Enjoy it."],
    ["kicked the takeaway habit, cooking evry night now",
     "Impressive! What's your go-to meal?",
     "pasta bake lol",
     "Hard to go wrong with that."],
], **stop_expect(["takeaway", "take-away", "take away", "takeout"]))

case("stop-21", "stop", "formal", "Haruto", "Juno", [
    ["I attend a Zen meditation group at the Rinzai temple every Thursday evening.",
     "Thank you for sharing. How has work been?",
     "Demanding, as ever, but manageable.",
     "Glad to hear it."],
    ["My son has begun learning to drive, which is testing my nerves considerably.",
     "That is a nerve-racking stage for any parent.",
     "Indeed; he is fond of roundabouts, and I am not."],
    ["I regret to say that I no longer attend the meditation group; my evening work commitments have made it "
     "impossible.",
     "I am sorry to hear that. I hope work eases.",
     "Thank you; so do I."],
], **stop_expect(["meditat", "Zen", "Rinzai"]))

case("stop-22", "stop", "formal", "Zora", "Sol", [
    ["I subscribe to the Sunday edition of The Observer, which is delivered to my door.",
     "What else fills your weekends?",
     "Long walks along the canal, chiefly.",
     "Lovely."],
    ["I have discontinued my subscription to The Observer, as I now read the news online.",
     "Do you miss the paper?",
     "Not in the least.",
     "Fair enough."],
], **stop_expect(["Observer"]))

case("stop-23", "stop", "formal", "Ciaran", "Tess", [
    ["I drink a glass or two of whisky most evenings.",
     "Thank you for telling me. What are you reading at present?",
     "A history of the Irish railways.",
     "Sounds thorough."],
    ["On my doctor's advice, I have given up whisky entirely.",
     "That is a considerable change. How are you finding it?",
     "Easier than I feared.",
     "Glad to hear it."],
], **stop_expect(["whisk"]))

case("stop-24", "stop", "formal", "Nilufar", "Kai", [
    ["I teach a weekly calligraphy class at the community centre on Monday evenings.",
     "Thank you. How is your week going?",
     "Pleasantly; my daughter visited on Sunday.",
     "How lovely."],
    ["I have ceased teaching the calligraphy class, as the community centre has closed for renovation.",
     "That's a pity. I hope you enjoy the free evenings.",
     "I intend to."],
], **stop_expect(["calligraph"]))

case("stop-25", "stop", "indirect", "Gustavo", "Nia", [
    ["Every night I smoke a cigar on the balcony, and last night my wife locked the balcony door on me as a joke.",
     "Ha! How long were you out there?",
     "Twenty minutes, in my slippers.",
     "A memorable evening."],
    ["Three weeks today.",
     "Three weeks of what?",
     "Without a cigar. I quit, my wife's idea, and I'm grumpy but proud.",
     "Proud is right."],
], **stop_expect(["cigar"]), gaps=[30])

case("stop-26", "stop", "indirect", "Maren", "Tess", [
    ["I sing alto in the cathedral choir on Tuesdays, and last night on the way home I found a hedgehog on "
     "Storgata and carried it to the vet in a shoebox.",
     "What a rescue! Is the hedgehog all right?",
     "Just hungry, the vet said.",
     "Good to hear."],
    ["I have Tuesday evenings free now.",
     "Oh? What happened?",
     "I packed in the cathedral choir after twelve years. Time for something new.",
     "That's a long run. Any ideas what's next?",
     "Maybe a painting class."],
], **stop_expect(["choir", "alto"]))

case("stop-27", "stop", "indirect", "Efua", "Juno", [
    ["Finally home.",
     "Busy day?",
     "Long. I do a 6am boxing class at Jab Club before work, and then it was meetings until seven.",
     "That's a full day."],
    ["I slept until eight today!",
     "What a treat. How come?",
     "I don't go to the boxing class anymore, so the alarm is off for good.",
     "Enjoy the lie-ins."],
], **stop_expect(["boxing", "Jab Club"]))

case("stop-28", "stop", "indirect", "Sebastian", "Ori", [
    ["My landlord came to fix the boiler and had to step around the armies on my table. I paint miniatures "
     "every evening, it's how I unwind.",
     "Did the boiler get fixed?",
     "Eventually, after three hours.",
     "Long job."],
    ["The kitchen table is finally clear.",
     "What happened?",
     "I'm done with painting miniatures, no time since the new job.",
     "Makes sense. How's the new job going?",
     "Busy but good."],
], **stop_expect(["miniature"]), gaps=[40])

# ---------------------------------------------------------------- clean (16)

case("clean-01", "clean", "plain", "Saoirse", "Ava", [
    ["Hi Ava. My aunt Brona lives in Sligo. She runs a guesthouse there.",
     "That sounds like a lovely spot. How was your day?",
     "Fine, thanks. I was at work.",
     "Glad it went well."],
    ["Hi Ava. Can you remind me to call Brona on Sunday? It is her birthday.",
     "I'll keep it in mind. Anything else today?",
     "No, that is all.",
     "Talk soon."],
], active=[M("Brona", "Sligo"), M("Brona", "guesthouse")],
   absent=[M("Hi Ava"), M("remind me"), M("can you"), M("guesthouse", none=["Brona", "aunt"])])

case("clean-02", "clean", "plain", "Rahel", "Kai", [
    ["Hello Kai. I think I told you this already. I work at Meskel Airlines in Addis Ababa. I am a flight "
     "dispatcher.",
     "Thanks. How was work today?",
     "Busy. Many delays.",
     "Sounds tiring."],
    ["As you know, I have two sons. Maybe I never said their names. They are Yonas and Dawit.",
     "Thank you for telling me. How old are they?",
     "Twelve and nine.",
     "Lively ages."],
], active=[M("Meskel"), M("dispatcher"), M("Yonas"), M("Dawit")],
   absent=[M("Hello Kai"), M("I think"), M("told you"), M("as you know"), M("maybe")])

case("clean-03", "clean", "chatty", "Ignacio", "Remi", [
    ["Heyyy Remi!! 😄 ok so big news: I started at Solera Labs as a data analyst on Monday!! I think the team is "
     "lovely, my boss Carmen is super sharp and there's free fruit lol 🍎 Also my flatmate adopted a hamster "
     "called Tortilla, so that's my life now",
     "Congratulations on the new job! What will you be working on?",
     "Pricing models for airlines, which sounds boring but I love it 🤓",
     "Sounds like a good fit."],
    ["Remi can you remind me what day my dentist appointment is? jk I know it's Thursday 😂 anyway Solera is "
     "going great, I'm on the pricing team with Carmen and a guy called Dario who brings his dog to the office 🐶",
     "A dog at work is a big perk. How's the commute?",
     "20 minutes on the metro, not bad",
     "Not bad at all."],
], active=[M("Solera"), M("analyst"), M("Dario")],
   absent=[M("Heyyy"), M("I think"), M("lol"), M("remind me"), M("can you"), M("jk")])

case("clean-04", "clean", "chatty", "Xiadani", "Tess", [
    ["Hi Tess!! 🌸 ok so as you know my abuela Guadalupe turned 90 last week, well you didn't know but now you do "
     "lol, and she still makes tamales for the whole street every Christmas 🫔 We had a huge party in her garden "
     "in Oaxaca",
     "What a celebration! Was the whole family there?",
     "Forty-two people, I counted 😂",
     "That's a proper party."],
    ["Tess can you remind me to buy masa on Friday 🙏 also my brother Tenoch got into the police academy in "
     "Monterrey!! so proud 🥹",
     "That's fantastic news! When does he start?",
     "In March",
     "Exciting times."],
], active=[M("Guadalupe", ["90", "ninety"]), M("Guadalupe", "tamale"), M("Tenoch", ["police", "academy"])],
   absent=[M("Hi Tess"), M("as you know"), M("tamale", none=["Guadalupe", "abuela", "grandm"]), M("lol"),
           M("remind me"), M("can you")])

case("clean-05", "clean", "chatty", "Bjorn", "Ori", [
    ["Morning Ori ☀️ quick life update: I'm probably going to say this badly, but I've been made foreman at the "
     "Hammerfest shipyard, crew of twelve 🛠️ to be honest I'm still a bit shocked lol. Celebrated with waffles "
     "and brown cheese obviously",
     "Congratulations! What does the crew work on?",
     "Mostly repairs on fishing boats",
     "Important work up there."],
    ["First week as foreman done ✅ my wife Solveig made me a cake shaped like a crane 😂 oh and could you "
     "remember that our anniversary is 14 June? I always forget",
     "The crane cake sounds amazing. Any plans for the anniversary?",
     "A cabin trip to Sørøya if the weather is kind",
     "Sounds lovely."],
], active=[M("foreman"), M("Hammerfest"), M("Solveig"),
           M(["14 June", "June 14", "14th June", "June 14th", "14th of June"])],
   absent=[M("Morning Ori"), M("probably"), M("to be honest"), M("lol"), M("could you")])

case("clean-06", "clean", "terse", "Fleur", "Juno", [
    ["hi juno. think i mentioned it. moved to utrecht. canal house.",
     "How's it going so far?",
     "damp. pretty.",
     "A fair trade."],
    ["remind me: dentist thurs. also sister Mieke's in Ghent now.",
     "Does she like it there?",
     "loves it.",
     "Good to hear."],
], active=[M("Utrecht"), M("Mieke", "Ghent")],
   absent=[M("hi juno"), M("i mentioned"), M("remind me")])

case("clean-07", "clean", "terse", "Laszlo", "Sol", [
    ["morning sol. maybe 20 yrs at the tram depot now. driver.",
     "That's a long career. Favourite route?",
     "number 2. river.",
     "Sounds scenic."],
    ["as u know, wife Zsofia. she teaches harp at the conservatory.",
     "Do you play anything yourself?",
     "no. i listen.",
     "Every musician needs a listener."],
], active=[M("tram"), M("Zsofia", "harp")],
   absent=[M("morning sol"), M("maybe"), M(["as u know", "as you know"]), M("harp", none=["Zsofia", "wife"])])

case("clean-08", "clean", "typos", "Shirin", "Kai", [
    ["heyy kai i thinkk i told u but my husband arash is a dentist in shiraz",
     "Thanks! How's your week going?",
     "ok, bit tired",
     "Rest when you can."],
    ["can u remind me arash's birthday is 3 march, i always forget lol",
     "I'll keep that in mind. Any plans for it?",
     "dinner at his favrite place",
     "Sounds perfect."],
], active=[M("Arash", "dentist"), M("Arash", ["3 March", "March 3", "3rd March", "March 3rd", "3rd of March"])],
   absent=[M("heyy kai"), M(["i thinkk", "i think"]), M(["told u ", "told you"]), M("remind me"),
           M(["can u ", "can you"]), M("lol")])

case("clean-09", "clean", "typos", "Caetano", "Tess", [
    ["oi tess!! so my cuzin joana she just opend a bakery in recife",
     "How exciting! What's the speciality?",
     "pão de queijo, the best",
     "Sounds delicious."],
    ["by the way i probly told u already, i work as a nurse at hospital boa vista",
     "That's demanding work. Night shifts?",
     "sometimes yea",
     "Take care of yourself."],
], active=[M("Joana", "bakery"), M("Boa Vista")],
   absent=[M("oi tess"), M("bakery", none=["Joana", "cousin"]), M("by the way"), M(["probly", "probably"]),
           M(["told u ", "told you"])])

case("clean-10", "clean", "typos", "Ottilie", "Juno", [
    ["hello juno!!! mayb u remember my dog rudi, hes a dachshund hes 12 now",
     "How is he doing these days?",
     "slow but happy",
     "That's what matters."],
    ["pls remind me to book rudis vet apointment for tuesday",
     "I'll keep it in mind. Anything else?",
     "nope thats it",
     "Talk soon."],
], active=[M("Rudi", ["dachshund", "daschund"]), M("Rudi", "12")],
   absent=[M("hello juno"), M(["mayb", "maybe"]), M(["u remember", "you remember"]),
           M("dachshund", none=["Rudi", "dog"]), M("12", none=["Rudi", "dog"]), M("remind me"), M("pls")])

case("clean-11", "clean", "formal", "Jabari", "Ori", [
    ["Good evening, Ori. As you may recall, I teach economics at the University of Dar es Salaam, and I believe "
     "I have done so for nine years.",
     "Thank you. What are you teaching this term?",
     "Development economics, to a class of some two hundred students.",
     "A large class."],
    ["Would you kindly remind me, in due course, that my sister Imani is visiting from Arusha on the twelfth? "
     "She is a paediatrician there.",
     "Of course. Will she stay long?",
     "A fortnight, I understand.",
     "A good long visit."],
], active=[M("economics"), M("Dar es Salaam"), M("Imani", ["paediatrician", "pediatrician"]), M("Imani", "Arusha")],
   absent=[M("Good evening"), M("as you may recall"), M("I believe"), M("remind me"), M("would you"),
           M(["paediatrician", "pediatrician"], none=["Imani", "sister"])])

case("clean-12", "clean", "formal", "Ximena", "Kai", [
    ["Dear Kai, I hope this finds you well. I should perhaps mention that my partner Valeria and I have recently "
     "adopted a three-legged cat named Chispa.",
     "How is the cat settling in?",
     "Remarkably well; she has claimed the best armchair.",
     "Cats know what they want."],
    ["Kai, to the best of my knowledge, Valeria's contract with the Museo de Arte de Lima runs until December. "
     "She works there as a conservator.",
     "That sounds like fascinating work.",
     "It is; she is restoring a colonial altarpiece at present.",
     "Remarkable."],
], active=[M("Chispa"), M("Valeria", "conservator")],
   absent=[M("Dear Kai"), M("finds you well"), M("perhaps"), M("to the best of my knowledge"),
           M("conservator", none=["Valeria", "partner"]), M("altarpiece", none=["Valeria", "partner"]),
           M("armchair", none=["Chispa", "cat"])])

case("clean-13", "clean", "formal", "Rohan", "Sol", [
    ["Hello Sol. I trust you are well. For the record, I have been a member of the Bangalore Quiz Society since "
     "2016.",
     "Do you compete often?",
     "Monthly, and we won the regional final last spring.",
     "Congratulations."],
    ["Good morning, Sol. Our team placed third at the national quiz championship in Chennai.",
     "Congratulations! Was it a close contest?",
     "Very close; we lost on the final question, about Mongolian rivers.",
     "So near!"],
    ["Might I ask you to remind me of my cardiology appointment? It is, I think, on the fourth of next month, at "
     "Kaveri Heart Clinic.",
     "I'll keep it in mind. Is it a routine check?",
     "Yes, an annual review.",
     "I hope it goes well."],
], active=[M("Quiz Society"), M("Kaveri")],
   absent=[M("Hello Sol"), M("Good morning"), M("I trust you are well"), M("for the record"), M("remind me"),
           M("I think"),
           M("might I ask")])

case("clean-14", "clean", "indirect", "Keziah", "Nia", [
    ["Hi Nia, you'll laugh at this.",
     "Go on.",
     "My neighbour's goat got into my garden again and ate the runner beans. I keep bees at the bottom of the "
     "garden, three hives, and honestly I think the goat was more scared of them than I was.",
     "Did the bees chase it off?",
     "All the way to the fence.",
     "Good bees."],
    ["Busy week.",
     "What's been happening?",
     "My son Ezekiel started his apprenticeship with an electrician in Kingston, so as you know I'm a taxi "
     "service now. And can you remind me to pay the water bill on Friday?",
     "I'll keep it in mind. How's Ezekiel finding it?",
     "Loving it, he comes home grinning.",
     "Lovely to hear."],
], active=[M(["three", "3"], "hive"), M("Ezekiel", ["apprentice", "electrician"])],
   absent=[M("Hi Nia"), M("you'll laugh"), M("I think"), M("honestly"), M("as you know"), M("remind me"),
           M("can you"), M("grinning", none=["Ezekiel", "son"])])

case("clean-15", "clean", "indirect", "Arjun", "Ava", [
    ["Morning.",
     "Morning! What are you up to?",
     "Hi Ava, well, I'm at the cricket nets. I play for Hounslow Cricket Club on Saturdays, I think since about "
     "2018, and my brother Kabir is the captain. He bowls leg spin.",
     "Leg spin is an art. What about you?",
     "Opening bat.",
     "A big responsibility."],
    ["Rained off today.",
     "What will you do instead?",
     "Dentist. Could you remind me what time? No wait, it's 3pm at Brentford Dental, I just checked.",
     "Good luck at the dentist."],
], active=[M("Hounslow"), M("Kabir", "captain"), M("Kabir", ["leg spin", "leg-spin", "legspin"])],
   absent=[M("Hi Ava"), M("I think"), M(["leg spin", "leg-spin", "legspin"], none=["Kabir", "brother"]),
           M("could you"), M("remind me"), M("no wait")])

case("clean-16", "clean", "indirect", "Tove", "Juno", [
    ["Hej Juno! Guess where I am.",
     "Where?",
     "On the night train to Kiruna. As you know I'm a geologist, and the mine in Kiruna hired me for a "
     "three-month survey, so maybe I'll finally see the northern lights.",
     "What an adventure. Pack warm!"],
    ["Sorry, terrible signal up here.",
     "No problem, how's it going?",
     "Cold! My husband Linus is minding our daughter Elsa back in Malmö, and I think he's coping. Can you remind "
     "me to send Elsa a postcard?",
     "I'll keep it in mind."],
], active=[M("geolog"), M("Kiruna"), M("Linus"), M("Elsa")],
   absent=[M("Hej Juno"), M("as you know"), M("maybe"), M("I think"), M("remind me"), M("can you"),
           M("coping", none=["Linus", "husband"])])


# ---------------------------------------------------------------- output

HOURS = [8, 9, 11, 12, 13, 17, 18, 19, 20, 21, 22, 7]
MINS = [0, 5, 10, 15, 20, 25, 30, 40, 45, 50, 55]


def stamp(d, k):
    return d.replace(hour=HOURS[k % len(HOURS)], minute=MINS[(k * 7) % len(MINS)]).strftime("%Y-%m-%dT%H:%M")


def build():
    out = []
    start = datetime(2023, 1, 4)
    for i, c in enumerate(CASES):
        d = start + timedelta(days=i * 5 + (i * 3) % 4)
        sessions = []
        for j, texts in enumerate(c["sessions"]):
            if j:
                gap = c["gaps"][j - 1] if c["gaps"] and j <= len(c["gaps"]) else 4 + (i * 5 + j * 11) % 19
                d = d + timedelta(days=gap)
            turns = [{"speaker": c["partner"] if n % 2 == 0 else c["agent"], "text": t}
                     for n, t in enumerate(texts)]
            sessions.append({"at": stamp(d, i * 3 + j), "turns": turns})
        out.append({"id": c["id"], "class": c["cls"], "style": c["style"], "partner": c["partner"],
                    "agent": c["agent"], "sessions": sessions, "expect": c["expect"]})
    with open("cases.jsonl", "w", encoding="utf-8") as f:
        for o in out:
            f.write(json.dumps(o, ensure_ascii=False) + "\n")
    print(f"wrote {len(out)} cases")


if __name__ == "__main__":
    build()
