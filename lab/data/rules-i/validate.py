#!/usr/bin/env python3
"""Checks cases.jsonl (standard library only). Exit status 1 on any error.

Usage: python3 validate.py [path/to/cases.jsonl]
"""
import json
import re
import sys
from collections import Counter, defaultdict
from datetime import datetime

PATH = sys.argv[1] if len(sys.argv) > 1 else "cases.jsonl"
CLASSES = {"same": 24, "addition": 24, "change": 24, "stop": 24, "clean": 0}
STYLES = ["plain", "chatty", "terse", "typos", "formal", "indirect"]
PREFIX = {"same": "same-", "addition": "add-", "change": "chg-", "stop": "stop-", "clean": "clean-"}
BANNED = ["pharmacist", "greyhound", "grey hound", "pixel", "beagle", "biscuit", "violin", "piano",
          "glasgow", "barista", "courier", "knee surgery", "leeds",
          # distinctive names and nouns of the first two sets (lab/data/rules, lab/data/rules-b),
          # as banned by the third set
          "nurse", "cork", "miso", "tabby", "bakery", "taxi", "smok",
          "tomasz", "gdansk", "pebble", "hollybrook", "valentina", "ziggy", "corrib", "mereana",
          "whanganui", "cockatiel", "croydon", "sunniva", "tromsø", "fiesta", "skoda", "debrecen",
          "bologna", "duolingo", "audible", "storytel", "peloton", "hellofresh", "tiktok",
          "fortnite", "dachshund", "calligraph", "hedgehog", "guesthouse", "sligo", "vaping",
          "pescatarian", "sourdough", "mahjong", "handball", "lifeboat", "ukulele", "bassoon",
          "triathlon", "kickbox", "matcha", "sencha", "metformin", "sertraline", "melatonin",
          "levothyroxine", "crunchyroll", "vespa", "kawasaki", "peugeot", "ostrava", "wroclaw",
          "stavanger", "hammerfest", "kiruna", "fremantle", "subiaco", "ponsonby", "saigon",
          "kumasi", "lottery", "energy drink", "netflix", "spotify", "kindle",
          # distinctive names and nouns of the third set (lab/data/rules-c)
          "hollowmere", "rivergate", "elmhurst", "halvorsen", "hermosillo", "tamarindo", "korčula",
          "kotor", "dordogne", "narrowboat", "kapa haka", "keppra", "zopiclone", "purelift",
          "baemin", "doordash", "deezer", "babbel", "cannondale", "brompton", "kombucha", "kefir",
          "rooibos", "snus", "nicotine gum", "mountain dew", "parkrun", "samaritans", "karaoke",
          "snooker", "allotment", "cartograph", "bookkeep", "tanning", "pipe organ",
          "table tennis", "zwolle", "odense", "aarhus", "dodoma", "mzumbe", "ikeja", "lekki",
          "margate", "peckham", "tucson", "tacoma", "le monde", "respekt", "football manager",
          "pedal house", "apolline", "clémence", "okafor", "elmwood", "calle ancha", "hornets",
          # matcher keywords of all earlier sets (lab/data/rules*: expect fields only; generic words,
          # numbers, stop/change words and greeting phrases left out), as banned by rules-g
          "14 june", "14th june", "14th of june", "3 march", "3rd march", "3rd of march",
          "5 a side", "5-a-side", "aarhus", "abandon", "abena", "aberaeron", "aberdeen",
          "academy", "accordion", "accountant", "achille", "achimota", "acorns", "acre", "actuar",
          "adunni", "adviser", "advisor", "aegeon", "aer lingus", "aftersun", "agata", "aidan",
          "al noor", "al-noor", "alcohol", "alder street", "alistair", "allerg", "allotment",
          "almaly", "almera", "alnoor", "altarpiece", "alto", "amazon", "amber foxes",
          "ambulance", "amit", "amlodipine", "amoxicillin", "analyst", "anouk", "antihistamine",
          "anwell", "anwen", "anytime", "apia", "apolline", "apple music", "apprentice", "aqua",
          "arabic", "arash", "archery", "architecture", "arequipa", "arla", "armchair", "arriaga",
          "arusha", "ashcombe", "ashdown", "asparagus", "aspirin", "assistant manager",
          "associate dean", "astana", "astra", "astronom", "asus", "atenolol", "ather", "atkins",
          "atorvastatin", "auctioneer", "audible", "austeja", "austėja", "ba dinh", "babbel",
          "backgammon", "badminton", "baemin", "baglama", "bakery", "ballina", "bamba", "banya",
          "barnet", "bass", "bassoon", "bastiaan", "beatrix", "bedminster", "beekeep", "bees",
          "bell ring", "bell-ring", "bellring", "bells", "benigno", "berlingo", "beskydy",
          "bet on", "bet365", "bets on", "betting", "bianchi", "biarritz", "biddy", "biedronka",
          "bike shop", "billings", "bingo", "bird", "bisoprolol", "black tea", "blonde", "blood",
          "boa vista", "boiler", "bologna", "bolt", "bookkeep", "bori", "boulder", "bouzouki",
          "boxing", "braid", "bramble", "bramwell", "brandt", "brass buttons", "brassfield",
          "brekke", "bridge", "bridlington", "brindley", "brisbane", "british gas",
          "british institute", "brno", "brompton", "brona", "buckwheat", "bulgur", "bunq",
          "bus driver", "bus-driver", "c3", "caliente", "call cent", "call of duty",
          "calle ancha", "calligraph", "camper", "canal", "candy crush", "canela", "cannondale",
          "canoas", "cant ", "capeview", "capraia", "captain", "car boot", "cardiolog",
          "care home", "carlisle", "carnivore", "carrowmore", "cartograph", "cashier", "casino",
          "caspian", "cathal", "cathedral", "celiac", "cello", "cetirizine", "charity shop",
          "chaska", "checkout", "chef", "chemistry", "chess", "chewing gum", "chicken", "chili",
          "chilli", "chisom", "chispa", "chocolate", "choir", "chorsu", "chuncheon", "church",
          "churro", "cider", "cigar", "cigarette", "cinema", "citalopram", "citroen", "citroën",
          "civic", "clann", "clarinet", "clemence", "climb", "clinic", "clio", "clove",
          "clémence", "cobalt", "coeliac", "coffee", "coke", "cola", "cold shower", "cold water",
          "cold-water", "comets", "community fibre", "conservator", "consuelo", "copenhagen",
          "cordoba", "corolla", "corrib", "corsa", "corvina", "crisps", "criterion", "croatian",
          "crochet", "crossfit", "crossing guard", "crossword", "croydon", "crumb", "crunchyroll",
          "curiosity stream", "curiositystream", "cycl", "córdoba", "d & d", "d&d", "da nang",
          "dachshund", "dacia", "damas", "danang", "dar es salaam", "dario", "darts", "daschund",
          "dawa", "dawit", "dazn", "deacon", "debrecen", "deezer", "delgado", "deliveroo", "dell",
          "dental", "dentist", "depot", "detect", "diabet", "diary", "dilfuza", "dinghy",
          "disney", "dispatcher", "dnd", "dodoma", "door dash", "doordash", "dordogne",
          "dragoljub", "drawing", "drogheda", "drum", "dubu", "ducati", "dumpling", "dungeons",
          "durban", "duruy", "duster", "dutch", "ebba", "eberhardt", "ebube", "economics",
          "economist", "ecotricity", "edf", "eivind", "ekibastuz", "electric", "electrician",
          "elgar", "elmhurst", "elmwood", "elsa", "emeka", "energy drink", "engineer",
          "engineering", "eoghan", "epilep", "epler", "eselsohr", "eskisehir", "eskişehir",
          "estonian", "examiner", "ezekiel", "fairphone", "falconr", "fantasy", "farsi",
          "fast food", "fast-food", "fasting", "felixstowe", "fellside", "fenchel", "fencing",
          "fennimore", "fenwick", "fernbrook", "fernleaf", "ferret", "ferris", "ferry", "fetu",
          "ffion", "fiachra", "fiat", "fidel", "fiesta", "fiifi", "financial times", "fionn",
          "fishing", "fit zone", "fitbit", "fitzone", "five a side", "five-a-side", "fizzy",
          "fjellvind", "fjordlys", "flexitarian", "flower", "fluminense", "flute", "folake",
          "food bank", "food truck", "foodbank", "football manager", "foreman", "fortnite",
          "free mobile", "fremantle", "french", "fudge", "fukuoka", "g&t", "gabija", "galaxy",
          "galilei", "gamba", "gambl", "garden center", "garden centre", "garmin", "gazette",
          "gdansk", "gdynia", "geolog", "ghent", "giant", "giba", "gin & tonic", "gin and tonic",
          "gin-and-tonic", "ginevra", "ginger", "glass of port", "glassblow", "goat", "golf",
          "goma", "governor", "gozo", "grace baptist", "greek", "green tea", "greenfield",
          "greenhill", "greymouth", "grinning", "gront hjorne", "grønt hjørne", "guadalupe",
          "guardian", "guesthouse", "guggenheim", "guinness", "gwendolen", "gwenllian", "gymnast",
          "hackney", "hadleigh", "hakon", "hala", "halden", "halvorsen", "hammerfest", "hanauma",
          "handball", "hanoi", "hanshin", "harbour street", "harcourt", "harlow", "harp",
          "harrogate", "hartwell", "haven", "hazelnut", "head chef", "hearing aid", "heat pump",
          "heat-pump", "hebrew", "hedvika", "hellofresh", "hendon", "hens", "hermosillo",
          "hillcrest", "hillrunner", "hilo", "hinge", "history", "hiwot", "ho chi minh",
          "hokitika", "hollowmere", "hollybrook", "honda", "honor", "hookah", "hops", "hornets",
          "horse", "hospice", "hotel", "hounslow", "huawei", "hula", "hulu", "hungarian",
          "hurling", "hydrolog", "hyperoptic", "håkon", "i mentioned", "ibuprofen", "ice bath",
          "ice rink", "iceland", "ikeja", "imani", "imelda", "inaya", "indore", "innsbruck",
          "instagram", "insurance", "interpret", "inverness", "ioniq", "iphone", "italian",
          "izmir", "jab club", "jagoda", "japanese", "jarana", "jarocho", "jarrah", "jazz",
          "jihlava", "jimny", "jio", "joana", "joergen", "jone", "jorgen", "joris", "jory",
          "jude", "judge", "juju", "june 14", "june 14th", "juniper", "jörgen", "kabir", "kacper",
          "kahurangi", "kaltfront", "kanini", "kanku", "kapa haka", "karaoke", "karim", "kava",
          "kaveri", "kawasaki", "kayak", "kefir", "kemi", "keppra", "kericho", "kestrel", "keto",
          "kettering", "khumalo", "kickbox", "kiko", "kindle", "kinga", "kinsale", "kinshasa",
          "kiran", "kiruna", "kiwi", "knit", "kobo", "kochi", "kojo", "kombucha", "kona",
          "konami", "korcula", "korčula", "kosice", "kosta", "kotiharju", "kotor", "košice",
          "kumasi", "lactose", "lahti", "lansoprazole", "lantern", "laps", "larkfield", "laser",
          "latex", "laundr", "le monde", "league", "lecce", "lecturer", "leek", "leg spin",
          "leg-spin", "legspin", "leisure centre", "lekki", "lemon", "lesya", "levenshulme",
          "levetiracetam", "levothyroxine", "lhamo", "libary", "librar", "lidl", "lifeboat",
          "lifeguard", "linden", "lindqvist", "linnet", "linus", "lisbon", "lisinopril",
          "ljubljana", "lloyds", "loan", "lodz", "loki", "lollipop", "london review", "lorenzo",
          "lotter", "lotto", "low carb", "low-carb", "lrb", "lucan", "lucky saint", "lulu",
          "lupin", "lyon", "mabli", "macbook", "magic", "mahjong", "mairtin", "malaga",
          "mandolin", "mango", "maple", "marathon", "march 3", "march 3rd", "marek", "margate",
          "maribor", "marimba", "marine", "marinos", "marisa", "marlow", "marseille",
          "marshbrook", "matcha", "matteo", "mazda", "mechanic", "meditat", "mediterranean",
          "melatonin", "memebox", "mercado norte", "mereana", "meskel", "metformin", "micra",
          "midwife", "mieke", "miniature", "mirtazapine", "mischa", "molekula", "monster",
          "montaigne", "montreal", "montréal", "monzo", "mortimer", "motorola", "motueka",
          "mountain dew", "movistar", "mpho", "mt 07", "mt-07", "mt07", "mtn", "mtn dew", "mubi",
          "mumbua", "mzumbe", "málaga", "n26", "nabil", "narrowboat", "nasvay", "naswar",
          "nazarbayev", "nedelya", "netflix", "newspaper", "nicotine gum", "nijmegen", "nintendo",
          "niro", "nissan", "nohut", "nokia", "nordlager", "norhavn", "novena", "nugget",
          "nuku'alofa", "nukualofa", "nuku’alofa", "nurse", "nutmeg", "o neg", "o negative",
          "o-neg", "oakfield", "oat milk", "oat-milk", "oatmilk", "obinna", "observer", "oche",
          "octopus", "odalys", "odense", "of port", "okafor", "omeprazole", "oneplus",
          "open water", "open-water", "opera", "operator", "oppo", "optician", "orchid", "oriel",
          "orla", "ornitholog", "ostrava", "otranto", "otterburn", "otterpool", "otters",
          "ottoline", "outrigger", "oxfam", "oybek", "paddington", "paddleboard", "padel",
          "paediatrician", "pagina uno", "pain au chocolat", "pancho", "papadakis", "paper round",
          "paper-round", "paperround", "paramount", "parish council", "parkinson", "parkrun",
          "paxta", "payroll", "peanut", "pebble", "peckham", "pedal house", "pediatrician",
          "pellet", "peloton", "penicillin", "pennine", "pepper", "persian", "perth",
          "pescatarian", "petalpost", "petri", "peugeot", "philomena", "phlebotom", "pho hanh",
          "photograph", "physio", "picanto", "picton", "pigeon", "pikkupossu", "pilates", "pilot",
          "pipe organ", "pipe-organ", "pistachio", "platelet", "playstation", "plovdiv", "plunge",
          "plymouth", "poker", "police", "ponsonby", "port wine", "porter", "porto", "portsoy",
          "portugu", "positive", "post office", "post ofice", "postman", "pottery", "pretzel",
          "private eye", "pro-vice", "procurement", "professor", "protein", "ps5", "pudding",
          "pumice", "pumpernickel", "pure gym", "puregym", "purelift", "pvc", "página uno",
          "qobuz", "quaker", "quantock", "quartz", "quiz society", "quizzly", "rabobank", "radio",
          "radiograph", "radoslaw", "radosław", "ragnhild", "ragweed", "rakija", "ramipril",
          "ranger", "ravensworth", "receptionist", "red cross", "redbridge", "refere", "reiger",
          "reinaldo", "renato", "repair", "respekt", "restor", "rhubarb", "ribble", "riese",
          "rijeka", "ring bells", "rinzai", "rivergate", "roast", "romanian", "rooibos",
          "rosario", "route 42", "rowing", "royal", "rudi", "rudo", "runna", "saffron", "saigon",
          "salford", "salote", "salsa", "samaritans", "samsung", "sapporo", "sasha", "satbayev",
          "scam", "science", "scratch card", "scratch-card", "scratchcard", "secondary school",
          "sencha", "sendai", "sertraline", "sesame", "sevilla", "seville", "shelbourne",
          "shellfish", "shelter", "shisha", "shoe", "shoko", "shoprite", "sibelius", "simyo",
          "sipho", "sitar", "site manager", "skate", "sketch", "skoda", "slavoj", "sligo",
          "slovak", "slovene", "smichov", "smok", "smíchov", "snabbmat", "snooker", "snooze",
          "snuff", "snus", "soda", "soft drink", "solera", "solveig", "sopot", "sorcha", "sorrel",
          "sorting", "soup kitchen", "soup-kitchen", "sourdough", "sous chef", "sous-chef", "soy",
          "spanish", "sparkasse", "sparkling", "spinning", "splendor", "spokane", "spotify",
          "springer", "spritz", "sprout", "squash", "stadtbad", "stained glass", "stall",
          "starling", "stavanger", "steam deck", "steamdeck", "store manager", "storytel",
          "stowbridge", "strava", "strawberr", "striders", "subiaco", "sudoku", "sugar", "sunbed",
          "sunniva", "superonline", "supervisor", "surly", "survey", "sven", "swahili", "swan",
          "swim", "szeged", "table tennis", "tacoma", "taize", "taizé", "take away", "take-away",
          "takeaway", "takeout", "talktalk", "tama", "tamale", "tamarindo", "tanning", "tarot",
          "tartu", "tashkent", "tattoo", "tavla", "taxi", "teacher", "team lead", "teller",
          "tembisa", "tenoch", "teranga", "tesco", "tesla", "teva", "thaddeus", "thandi",
          "thessaly", "thinkpad", "tiago", "tidal", "tik tok", "tiktok", "timur", "tobacco",
          "tobi", "tolya", "tomasz", "tomato", "tormenta", "tortoise", "tostado", "tour guide",
          "tour-guide", "tram", "transit", "translat", "treasurer", "trek", "triathlon", "trisha",
          "trumpet", "tucson", "tully", "tulsa", "turk telekom", "turkish", "turnip", "tutor",
          "twitch", "tyneside", "type 1", "type i ", "type one", "type-1", "typewrit", "tzipi",
          "türk telekom", "u-13", "u-9", "u10", "u13", "u9", "uber", "ukulele", "umpir",
          "under 10", "under 13", "under 9", "under-10", "under-13", "under-9", "under-ten",
          "usher", "utrecht", "valencia", "valentina", "valeria", "valletta", "vap", "varna",
          "vegan", "vegetarian", "venlafaxine", "vespa", "vice chancellor", "vice-chancellor",
          "viki", "viliami", "villeurbanne", "vinyl", "virgin", "vit d", "vitamin d", "vodafone",
          "volcano", "volleyball", "volvo", "vossberg", "waka", "wanjiru", "warcraft",
          "ward clerk", "warham", "warhammer", "wasp", "watercolor", "watercolour", "wayfarer",
          "wayra", "weld", "wellsford", "welsh", "wexley", "whisk", "whitstable", "wiesiek",
          "wine", "woodturn", "wordle", "wroclaw", "wrocław", "xbox", "xiaomi", "xperia", "yahya",
          "yamaha", "yaris", "yerba", "ynab", "yoga", "yonas", "youtube", "ysolde", "zagreb",
          "zakopane", "zanele", "zayd", "zbyszek", "zeezwaluw", "zen", "ziggy", "zizkov", "zoe",
          "zopiclone", "zorka", "zsofia", "zumba", "zumrad", "zurich", "zwolle", "zürich", "łódź",
          "žižkov",
          # distinctive matcher keywords of the earlier sets not yet listed above, added by rules-h
          "3-d printer", "3d printer", "achterberg", "aldous", "ansel", "arcadia", "ashgrove",
          "balet", "ballet", "barley", "basque", "bexhil", "board game", "board-game",
          "boardgame", "book club", "brandvold", "brannoc", "brightwater", "brockley", "bumble",
          "candle", "castlemoor", "cgates", "chair", "chromebook", "cicerone", "cnc",
          "compost heap", "cottage", "creatine", "crispian", "cromarty", "damilare", "damson",
          "dead air", "dialysis", "dominik", "donkey", "drover", "egon", "elmsworth", "espresso",
          "fenmarket", "figaro", "futsal", "gems rush", "georgian", "giffgaff", "gilded hare",
          "gudrun", "gullmere", "gumbo", "guzzi", "handelsbanken", "harbrook", "haverly",
          "hawthorn", "hyundai", "i20", "ignis", "iguana", "iguanna", "judo", "kaleb", "kangoo",
          "kelmscott", "kestle", "kettlebell", "knuckle", "landlord", "lebara", "lenovo",
          "line danc", "linfield", "locksmith", "losartan", "love island", "maarten",
          "macrobiotic", "mane street", "manicure", "maribel", "marmalade", "marram", "marwick",
          "massage", "minaret", "mountain bik", "nordea", "norrtull", "okonkwo", "okoro",
          "oldmoor", "ondrej", "orbea", "orienteer", "ostmark", "paleo", "paralegal",
          "paramedic", "pelikan", "pennock", "pepsi", "pettigrew", "pinecrest", "pippa",
          "pollard", "quayside", "radmila", "ravelstone", "reading helper", "realme", "red bull",
          "reinhold", "simvastatin", "skarvoy", "sodermalm", "sommelier", "tap clas", "tap danc",
          "tap-danc", "telia", "teodoro", "tillbury", "tinsel", "tolland", "ukrainian",
          "upholster", "vending", "wambui", "westwick", "wexcombe", "whitlow", "xiomara", "xosé",
          "zarghuna", "zolpidem"
          ,
          # distinctive matcher keywords of rules-h (and earlier) not yet banned, added by rules-i
          "oakridge", "clementine", "tango", "sonograph", "banjo", "bramhall", "daily mail", "gecko", "ilya", "contact lens", "xose", "copywrit", "lucozade", "axolotl", "kebab", "dunmore", "marlcombe", "pokemon", "pokémon", "fruit machine", "larchmont", "ebbsfield", "veggie", "asthma", "woodcarv", "wood carv", "revolut", "rounders", "bexhill", "slimming world", "weight watchers", "weightwatchers", "durham", "childminder", "bartend", "brunhild", "trevanion", "fernhill", "quarry lane", "parcelfast", "aldi", "ettore", "national trust", "kingsmead", "ebay", "hello fresh", "doughnut", "firefight", "snip snap", "catalan", "werburgh", "costwise", "statin", "kelso", "brookvale", "rotary", "llama", "warfarin", "camra", "collie", "exeter", "ottery", "west kirby", "outlander", "hoylake", "morningside", "sign language", "cribbage", "illustrat", "stockport", "corwin", "annika", "cardiff", "smudge", "croquet", "snapchat", "hartfield", "saab", "winnipeg", "netball", "mandarin", "fairmile", "whitby", "minnow", "leipzig", "prius", "didsbury", "ambleford", "larkspur", "red lion", "tidewell", "boxercise", "jigsaw", "bonsai", "henni", "benelli", "reddit", "cod liver", "headspace", "alpaca", "oboe", "rugby", "sauna", "wiltrud", "perdita", "puddle duck", "real tennis", "carpent", "plumb", "rabbit", "quiz", "pogo", "holloway", "bristol", "hamburg", "spaniel"]
# partner and agent names of all earlier sets: none may be reused as a partner or agent name
BANNED_NAMES = {"Abebe", "Abelard", "Achieng", "Adaeze", "Adalind", "Adriel", "Agnes", "Agnetha", "Aigerim", "Aino", "Aisling", "Alaric", "Algernon", "Alibek", "Alphonse", "Alvar", "Ama", "Amara", "Amaury", "Ambrose", "Anahí", "Anatole", "Anders", "Andile", "Anjali", "Anneliese", "Anouska", "Anselm", "Anselma", "Anstice", "Anuk", "Archibald", "Arjun", "Arlo", "Arnaud", "Arnav", "Aroha", "Arvid", "Asha", "Augusta", "Augustin", "Aurelian", "Aurelija", "Aurelio", "Ava", "Ayaan", "Ayasha", "Ayelet", "Ayesha", "Aylin", "Ayodele", "Aziz", "Babajide", "Bao", "Barnaby", "Bartek", "Bartholomew", "Bartolo", "Bartosz", "Bashir", "Bathsheba", "Beatrice", "Beatriz", "Bellamira", "Bellamy", "Benedek", "Benedetta", "Benedicta", "Benedikt", "Berit", "Bernadette", "Bernadine", "Bertil", "Bertilda", "Bertrand", "Bettina", "Bex", "Bexley", "Bilal", "Birgitta", "Birte", "Bjorn", "Bogdan", "Bohdan", "Bolanle", "Bongani", "Borbála", "Bram", "Brandi", "Brennagh", "Brigid", "Briony", "Bronagh", "Bronte", "Bronwen", "Bruno", "Brígida", "Caetano", "Caius", "Callan", "Callum", "Camila", "Caoimhe", "Carys", "Casimir", "Caspar", "Catalina", "Cathaoir", "Catrin", "Cecilia", "Celestyna", "Cenk", "Chayton", "Chidi", "Chioma", "Chloe", "Ciaran", "Cirilo", "Clara", "Clemmie", "Cleo", "Clodagh", "Clovis", "Clíona", "Cody", "Constance", "Coralie", "Cordelia", "Corentin", "Corisande", "Cormac", "Cornelius", "Corrie", "Corvin", "Cosima", "Cosimo", "Cosmin", "Cosmo", "Cressida", "Crispin", "Cuthbert", "Cyprian", "Cyrilla", "Cyrille", "Cyrus", "Dagmar", "Dagny", "Dagrun", "Dalia", "Damaris", "Darian", "Dariusz", "Darnell", "Darragh", "Declan", "Delia", "Delphine", "Delroy", "Delyth", "Dervla", "Desislava", "Desmond", "Desmonda", "Dev", "Devika", "Dilnoza", "Dimitrije", "Dineo", "Dmitri", "Dobromir", "Dorcas", "Dorota", "Dorothea", "Dragan", "Drusilla", "Dunja", "Dunstan", "Dusty", "Dwayne", "Dymphna", "Eamon", "Eberhard", "Ebrima", "Edvard", "Edwina", "Eero", "Efua", "Eilidh", "Eitan", "Ekaterina", "Ekow", "Eldar", "Eleanora", "Elena", "Eleni", "Elif", "Elowen", "Elspeth", "Emeric", "Emil", "Emre", "Emrys", "Ephraim", "Esi", "Esker", "Esmé", "Esperanza", "Esteban", "Euan", "Eulalia", "Euphemia", "Eustace", "Evadne", "Evander", "Evangeline", "Evelina", "Evert", "Ezinne", "Ezra", "Fabiola", "Faisal", "Farah", "Faramond", "Farhan", "Farida", "Farrukh", "Fatou", "Faustina", "Femi", "Fenella", "Fenna", "Ferdinand", "Ferdinanda", "Fergus", "Ferran", "Fidelma", "Filomena", "Finn", "Fionnuala", "Fitzroy", "Fleur", "Florentyna", "Florian", "Florin", "Folasade", "Fotini", "Freya", "Fulvia", "Fumiko", "Gaetano", "Garrick", "Gaspara", "Gaspard", "Gaukhar", "Gaurav", "Gedeon", "Georgiana", "Gerold", "Gertrud", "Gethin", "Gideon", "Giedre", "Gilchrist", "Gintaras", "Gisela", "Godric", "Gorka", "Graciela", "Grainne", "Greer", "Gregor", "Greta", "Guillermo", "Gulalai", "Gulnara", "Gulshan", "Gunnar", "Gunnhild", "Gustavo", "Gwen", "Gwenda", "Gwilym", "Gwynfor", "Haider", "Hakan", "Halima", "Halldóra", "Hallvard", "Hamid", "Hamza", "Hana", "Hannelore", "Harriet", "Hartley", "Haruto", "Hedda", "Heloise", "Hemant", "Hemi", "Henare", "Henrietta", "Henrik", "Henrike", "Hermione", "Hesketh", "Hesper", "Hiba", "Hildebrand", "Hildegard", "Hiltrud", "Hinemoa", "Hiroshi", "Hollis", "Honorata", "Honoria", "Honorine", "Horatio", "Hortensia", "Hugh", "Hugo", "Hyacinth", "Hyacintha", "Hypatia", "Hyun-woo", "Idony", "Idris", "Idunn", "Ieuan", "Ifeoma", "Ignacio", "Ignatia", "Ignatius", "Ikaika", "Ilaria", "Ilario", "Ilkka", "Ilona", "Ilse", "Imogen", "Imre", "Ines", "Ingeborg", "Ingrid", "Inti", "Ishaan", "Ishbel", "Isidora", "Isidore", "Iskra", "Isla", "Isolde", "Itzel", "Ivana", "Ivo", "Jabari", "Jacinta", "Jae-won", "Jago", "Jarek", "Jaroslav", "Jasna", "Jasper", "Jaylen", "Jelena", "Jermaine", "Jerusha", "Jessamy", "Jethro", "Jhoanna", "Jiho", "Jindra", "Joaquin", "Jocasta", "Jolanta", "Jolene", "Jolyon", "Jomo", "Jonas", "Joost", "Jovan", "Jovana", "Juliana", "Jun", "Juno", "Jurgita", "Jussi", "Kagiso", "Kai", "Kalani", "Kalinda", "Kallisto", "Kalyani", "Kamala", "Kasimir", "Kasimira", "Kaspar", "Kaveh", "Kealoha", "Kemal", "Kenji", "Kenrick", "Kenzie", "Kerttu", "Kester", "Keturah", "Keziah", "Kiana", "Kilian", "Kimberleigh", "Kiona", "Kiri", "Klaudia", "Kobina", "Kofi", "Kolya", "Konstantin", "Kornelia", "Kristjan", "Krystal", "Kunal", "Kunigunde", "Kwabena", "Kwame", "Kwesi", "Lachlan", "Lakshmi", "Lark", "Laszlo", "Lavender", "Lavinia", "Leandro", "Leila", "Leocadia", "Leofric", "Leontine", "Leontyne", "Leopold", "Lerato", "Liadan", "Lieke", "Liesbeth", "Liesel", "Linh", "Linnea", "Lio", "Lorcan", "Lorelei", "Lorenzo", "Losana", "Lotte", "Lowri", "Luana", "Lucasta", "Lucius", "Ludmila", "Ludo", "Ludovica", "Lukas", "Lumi", "Luz", "Lwazi", "Lysander", "Maddox", "Madina", "Maelis", "Maelle", "Mahala", "Mahlet", "Maja", "Maksym", "Malik", "Mandla", "Manon", "Maren", "Margery", "Margit", "Margriet", "Marguerita", "Marguerite", "Mariela", "Marigold", "Marisol", "Marit", "Marjeta", "Marta", "Mateo", "Mateusz", "Mathilde", "Matthias", "Mattias", "Matías", "Maximilian", "Meenakshi", "Mehmet", "Mehwish", "Mei", "Melisande", "Mercia", "Merritt", "Mikko", "Milos", "Min-jun", "Minerva", "Mira", "Mireia", "Mireille", "Mirela", "Mireva", "Mirri", "Modesto", "Mordecai", "Morwenna", "Mstislav", "Mwajuma", "Nadezhda", "Nadia", "Nalani", "Nanami", "Nandor", "Nanette", "Nasrin", "Nathaniel", "Nazira", "Nell", "Nerissa", "Nerys", "Neville", "Ngaio", "Ngozi", "Nia", "Niamh", "Nikhil", "Niko", "Nikolaj", "Nilsa", "Nilufar", "Nimmi", "Nkechi", "Nkiruka", "Noemi", "Nohemi", "Noor", "Norberto", "Nova", "Nuno", "Nyambura", "Obadiah", "Octavian", "Oddny", "Odette", "Odhran", "Odile", "Oisín", "Oksana", "Okwudili", "Olamide", "Olek", "Olu", "Olwen", "Olympia", "Omar", "Oona", "Oonagh", "Ophelia", "Oren", "Ori", "Oriana", "Orlaith", "Orrin", "Orsolya", "Osbert", "Osian", "Oskar", "Oswin", "Ottavia", "Ottilie", "Otto", "Ottokar", "Paloma", "Paolo", "Parisa", "Pasquale", "Pavlina", "Pavol", "Paz", "Pell", "Pema", "Percival", "Peregrine", "Perla", "Pernille", "Perpetua", "Perpetuo", "Perrin", "Petrea", "Petronella", "Philippa", "Philippe", "Philomene", "Phineas", "Pilar", "Piotr", "Pip", "Piran", "Pita", "Pomona", "Pradeep", "Precious", "Primrose", "Prisca", "Priya", "Prosper", "Prudence", "Przemek", "Quentin", "Quill", "Quilla", "Quinby", "Quinta", "Quintus", "Quirin", "Radek", "Radhika", "Radka", "Radomir", "Rafael", "Rafe", "Rafferty", "Rahel", "Raimund", "Rangi", "Rania", "Raphaela", "Rashid", "Rasmina", "Rasmus", "Ravi", "Ravindra", "Reginald", "Rehana", "Remi", "Renske", "Rhiannon", "Rhodri", "Rin", "Rizwan", "Rodrigo", "Rohan", "Roisin", "Romilly", "Rosa", "Rosalba", "Rosalie", "Rosalind", "Rosalyn", "Rosamund", "Rosaura", "Rosheen", "Rowena", "Roxanne", "Rozalia", "Ruairi", "Ruairidh", "Rubén", "Rue", "Ruslan", "Rustam", "Sabela", "Sabine", "Sade", "Saffi", "Sage", "Sakura", "Sana", "Sanele", "Sanjay", "Saoirse", "Saskia", "Saule", "Sebastian", "Seda", "Sefa", "Sefton", "Septimus", "Serafina", "Severin", "Severine", "Shanice", "Shirin", "Signe", "Sigrid", "Sigurd", "Sigvard", "Silvan", "Sinead", "Sione", "Sol", "Soledad", "Soo-ah", "Soraia", "Soraya", "Sota", "Stanislav", "Stellan", "Sten", "Suki", "Sunita", "Svetlana", "Sylvester", "Tabitha", "Tadeo", "Tahmina", "Tali", "Tallulah", "Tamsen", "Tamsin", "Tanvi", "Tariq", "Tavi", "Tavita", "Temitope", "Tendai", "Teodor", "Teodora", "Teofil", "Tereza", "Tess", "Teuila", "Tevita", "Thabo", "Thaddea", "Thandeka", "Thea", "Theodora", "Thorsten", "Thorvald", "Tiberius", "Tiernan", "Tjorven", "Tobenna", "Tobiah", "Tomas", "Tomoko", "Torquil", "Tove", "Trine", "Tuan", "Tuulikki", "Tyrell", "Uchenna", "Ugne", "Ugo", "Ulani", "Ulf", "Ulick", "Ulises", "Ulla", "Ulrich", "Ulrike", "Ulyana", "Ulysses", "Uma", "Umberto", "Umut", "Una", "Ursula", "Urszula", "Uzma", "Vaiva", "Valdis", "Valentin", "Valka", "Valter", "Vasco", "Vashti", "Vela", "Venkat", "Verity", "Vernon", "Vesna", "Vidar", "Vikram", "Viktor", "Vittorio", "Vivienne", "Vuk", "Vusi", "Wairimu", "Wanda", "Wanza", "Wei", "Wendelin", "Wendeline", "Wendell", "Wiebke", "Wilbur", "Wilfreda", "Wilfrid", "Wilhelmina", "Wilhelmine", "Willa", "Wilma", "Winifred", "Winnie", "Winslow", "Wiremu", "Wojtek", "Wolcott", "Wolfram", "Wren", "Wynn", "Wystan", "Xanthe", "Xavi", "Xenia", "Xiadani", "Ximena", "Xochitl", "Yara", "Yaretzi", "Yaw", "Yelena", "Yerlan", "Yestin", "Yevgenia", "Yevhen", "Yiannis", "Yohannes", "Yolanda", "Yolande", "Yorick", "Yosef", "Ysabel", "Ysella", "Yuki", "Yuna", "Yusra", "Yusuf", "Zacharias", "Zainab", "Zarina", "Zbigniew", "Zdenek", "Zdravka", "Zelda", "Zelimir", "Zenobia", "Zephyrine", "Zeynep", "Zlata", "Zofia", "Zohra", "Zora", "Zuleika", "Zuriel", "Zuzana"}


errors, warnings = [], []


def err(cid, msg):
    errors.append(f"{cid}: {msg}")


def warn(cid, msg):
    warnings.append(f"{cid}: {msg}")


def elem_ok(e):
    if isinstance(e, str):
        return bool(e)
    return isinstance(e, list) and len(e) > 0 and all(isinstance(a, str) and a for a in e)


def alts(e):
    return [e] if isinstance(e, str) else e


def has(text, e):
    t = text.lower()
    return any(a.lower() in t for a in alts(e))


def matches(text, m):
    return all(has(text, e) for e in m["all"]) and not any(n.lower() in text.lower() for n in m.get("none", []))


def check_matcher(cid, where, m):
    if not isinstance(m, dict) or set(m) - {"all", "none"} or "all" not in m:
        err(cid, f"{where}: bad matcher shape {m!r}")
        return False
    if not isinstance(m["all"], list) or not m["all"] or not all(elem_ok(e) for e in m["all"]):
        err(cid, f"{where}: bad 'all' {m['all']!r}")
        return False
    if "none" in m and (not isinstance(m["none"], list) or not all(isinstance(n, str) and n for n in m["none"])):
        err(cid, f"{where}: bad 'none' {m['none']!r}")
        return False
    return True


def sentences(text):
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


cases = []
with open(PATH, encoding="utf-8") as f:
    for n, line in enumerate(f, 1):
        if not line.strip():
            err(f"line {n}", "blank line")
            continue
        try:
            cases.append(json.loads(line))
        except json.JSONDecodeError as e:
            err(f"line {n}", f"does not parse: {e}")

ids = Counter(c.get("id") for c in cases)
for i, k in ids.items():
    if k > 1:
        err(i, f"id used {k} times")

by_class = Counter(c.get("class") for c in cases)
style_by_class = defaultdict(Counter)
partners = Counter()
keyword_cases = defaultdict(set)

for c in cases:
    cid = c.get("id", "?")
    keys = {"id", "class", "style", "partner", "agent", "sessions", "expect"}
    if set(c) != keys:
        err(cid, f"keys {sorted(c)} != {sorted(keys)}")
        continue
    cls, style, p, a = c["class"], c["style"], c["partner"], c["agent"]
    if cls not in CLASSES:
        err(cid, f"unknown class {cls}")
        continue
    if not cid.startswith(PREFIX[cls]):
        err(cid, f"id prefix does not fit class {cls}")
    if style not in STYLES:
        err(cid, f"unknown style {style}")
    style_by_class[cls][style] += 1
    partners[p] += 1
    for nm in (p, a):
        if nm in BANNED_NAMES:
            err(cid, f"name {nm!r} was used in an earlier set")
    if p == a:
        err(cid, "partner and agent have the same name")

    # sessions and turns
    ss = c["sessions"]
    if not isinstance(ss, list) or not 2 <= len(ss) <= 3:
        err(cid, "needs 2 or 3 sessions")
        continue
    prev = None
    for si, s in enumerate(ss):
        if set(s) != {"at", "turns"}:
            err(cid, f"session {si + 1}: keys {sorted(s)}")
            continue
        try:
            at = datetime.strptime(s["at"], "%Y-%m-%dT%H:%M")
        except ValueError:
            err(cid, f"session {si + 1}: bad time {s['at']!r}")
            at = None
        if prev and at and at <= prev:
            err(cid, f"session {si + 1}: time does not increase")
        prev = at or prev
        ts = s["turns"]
        if not 2 <= len(ts) <= 6:
            err(cid, f"session {si + 1}: {len(ts)} turns (want 2-6)")
        for ti, t in enumerate(ts):
            if set(t) != {"speaker", "text"} or not isinstance(t["text"], str) or not t["text"].strip():
                err(cid, f"session {si + 1} turn {ti + 1}: bad turn {t!r}")
                continue
            want = p if ti % 2 == 0 else a
            if t["speaker"] != want:
                err(cid, f"session {si + 1} turn {ti + 1}: speaker {t['speaker']!r}, want {want!r}")

    person = [[t["text"] for t in s["turns"] if t.get("speaker") == p] for s in ss]
    agent_text = " ".join(t["text"] for s in ss for t in s["turns"] if t.get("speaker") == a)
    all_person = [t for sess in person for t in sess]
    earlier_person = [t for sess in person[:-1] for t in sess]
    later_person = [t for sess in person[1:] for t in sess]
    full_text = " ".join(t["text"] for s in ss for t in s["turns"]).lower()
    for b in BANNED:
        if b in full_text:
            err(cid, f"uses a banned example word {b!r}")

    ex = c["expect"]
    if not isinstance(ex, dict) or set(ex) != {"active", "once", "retired", "absent"}:
        err(cid, f"expect keys {sorted(ex) if isinstance(ex, dict) else ex!r}")
        continue
    ok = True
    for k in ex:
        if not isinstance(ex[k], list):
            err(cid, f"expect.{k} is not a list")
            ok = False
            continue
        for m in ex[k]:
            ok &= check_matcher(cid, f"expect.{k}", m)
    if not ok:
        continue

    # every matcher's keywords can be satisfied by what the person said
    for k in ("active", "once", "absent"):
        for m in ex[k]:
            for e in m["all"]:
                if not any(has(t, e) for t in all_person):
                    err(cid, f"{k} keyword {e!r} not in the person's turns")
            if k != "absent" and not any(all(has(t, e) for e in m["all"]) for t in all_person):
                err(cid, f"{k} matcher {m['all']!r} never co-occurs in one person turn")
            if k != "absent":
                keyword_cases[json.dumps(alts(m["all"][0])[0].lower())].add(cid)
    for m in ex["retired"]:
        for e in m["all"]:
            if not any(has(t, e) for t in earlier_person):
                err(cid, f"retired keyword {e!r} not in an earlier session's person turns")
        keyword_cases[json.dumps(alts(m["all"][0])[0].lower())].add(cid)
        # a faithful memory of the old sentence can match: some earlier sentence has all, none of none
        if not any(matches(sn, m) for t in earlier_person for sn in sentences(t)):
            err(cid, f"retired matcher {m['all']!r}: no earlier sentence holds it free of its 'none' words")
        # later sentences that name the old state also carry a word of the new state / the stop
        for t in later_person:
            for sn in sentences(t):
                if all(has(sn, e) for e in m["all"]) and matches(sn, m):
                    err(cid, f"retired matcher {m['all']!r}: later sentence restates the old state: {sn!r}")

    # the agent does not restate the facts under test
    for k in ("once", "retired", "active"):
        for m in ex[k]:
            for e in m["all"]:
                if isinstance(e, str) and len(e) > 3 and e.lower() in agent_text.lower() and k != "active":
                    warn(cid, f"agent turns contain {k} keyword {e!r}")

    # class-specific shape
    first, later = person[0], later_person
    if cls == "same":
        if not ex["once"] or ex["retired"] or ex["absent"]:
            err(cid, "same: wants once matchers only")
        for m in ex["once"]:
            sess_hits = sum(any(all(has(t, e) for e in m["all"]) for t in sess) for sess in person)
            if sess_hits < 2:
                err(cid, f"same: once matcher {m['all']!r} is said in only {sess_hits} session(s)")
    elif cls == "addition":
        if len(ex["active"]) < 2 or ex["retired"] or ex["once"]:
            err(cid, "addition: wants >= 2 active matchers and nothing retired")
        old = [m for m in ex["active"] if any(matches(t, m) for t in first)]
        new = [m for m in ex["active"] if not any(matches(t, m) for t in first)
               and any(matches(t, m) for t in later)]
        if not old or not new:
            err(cid, "addition: wants an item from session 1 and an item first said later")
    elif cls in ("change", "stop"):
        if not ex["active"] or not ex["retired"]:
            err(cid, f"{cls}: wants active and retired matchers")
        for m in ex["active"]:
            if not any(matches(t, m) for t in later):
                err(cid, f"{cls}: active matcher {m['all']!r} not said in a later session")
            if any(matches(sn, m) for t in first for sn in sentences(t)):
                err(cid, f"{cls}: active matcher {m['all']!r} already holds in a session-1 sentence")
        if cls == "stop":
            for r in ex["retired"]:
                if not any(m["all"][0] == r["all"][0] for m in ex["active"]):
                    err(cid, "stop: the stop matcher does not name the habit")
    elif cls == "clean":
        if not ex["active"] or not ex["absent"]:
            err(cid, "clean: wants active and absent matchers")

# counts
for cls, n in CLASSES.items():
    if by_class[cls] != n:
        err("counts", f"class {cls}: {by_class[cls]} cases, want {n}")
    st = style_by_class[cls]
    vals = [st[s] for s in STYLES]
    if max(vals) - min(vals) > 1:
        err("counts", f"class {cls}: styles uneven {dict(st)}")
if len(cases) != sum(CLASSES.values()):
    err("counts", f"{len(cases)} cases, want {sum(CLASSES.values())}")
for p, k in partners.items():
    if k > 1:
        warn("names", f"partner {p} used in {k} cases")
for kw, cs in sorted(keyword_cases.items()):
    if len(cs) > 1:
        warn("keywords", f"{kw} used as a keyword in {sorted(cs)}")

# report
print(f"{len(cases)} cases")
print("class      " + " ".join(f"{s:>8}" for s in STYLES) + "   total")
tot = Counter()
for cls in CLASSES:
    st = style_by_class[cls]
    tot.update(st)
    print(f"{cls:<10} " + " ".join(f"{st[s]:>8}" for s in STYLES) + f"   {sum(st.values()):>5}")
print(f"{'total':<10} " + " ".join(f"{tot[s]:>8}" for s in STYLES) + f"   {sum(tot.values()):>5}")
nm = Counter()
for c in cases:
    for k, v in c["expect"].items():
        nm[k] += len(v)
print("matchers:", dict(nm))
for w in warnings:
    print("WARN", w)
for e in errors:
    print("ERROR", e)
print("OK" if not errors else f"{len(errors)} error(s)")
sys.exit(1 if errors else 0)
