BEGIN TRANSACTION;
CREATE TABLE actions (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
);
INSERT INTO "actions" VALUES(1,1,'{"a":"players","n":3}',1853434114);
INSERT INTO "actions" VALUES(1,2,'{"a":"new","drawn":true,"first":1,"players":3,"setup":{"1":"black","10":"red","11":"red","12":"blue","13":"black","14":"yellow","15":"green","16":"black","17":"red","18":"green","19":"blue","2":"green","20":"yellow","21":"red","22":"green","23":"black","24":"yellow","25":"blue","26":"green","27":"black","28":"blue","29":"yellow","3":"yellow","30":"red","31":"black","32":"green","33":"red","34":"yellow","35":"blue","36":"blue","37":"red","38":"green","39":"black","4":"blue","40":"yellow","41":"red","42":"green","43":"black","44":"blue","45":"yellow","46":"green","47":"red","48":"yellow","49":"blue","5":"red","50":"black","51":"blue","52":"red","53":"black","54":"green","55":"yellow","56":"green","57":"black","58":"red","59":"blue","6":"blue","60":"yellow","7":"black","8":"yellow","9":"green"}}',1806456495);
INSERT INTO "actions" VALUES(1,3,'{"a":"ready"}',2634222732);
INSERT INTO "actions" VALUES(1,4,'{"a":"move","from":9,"to":8}',91581415);
INSERT INTO "actions" VALUES(1,5,'{"a":"move","from":46,"to":19}',1596163669);
INSERT INTO "actions" VALUES(1,6,'{"a":"move","from":29,"to":32}',2800556606);
INSERT INTO "actions" VALUES(1,7,'{"a":"brightness","level":2}',1964709037);
INSERT INTO "actions" VALUES(1,8,'{"a":"move","from":26,"to":30}',1708139313);
INSERT INTO "actions" VALUES(1,9,'{"a":"move","from":37,"to":36}',499527753);
INSERT INTO "actions" VALUES(1,10,'{"a":"move","from":44,"to":42}',3202960712);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
INSERT INTO "games" VALUES(1,'clans',1.7955470457786610126e+09,NULL,NULL);
COMMIT;
