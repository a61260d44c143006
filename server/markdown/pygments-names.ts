/**
 * Pygments' lexer names by alias, as Zulip's server writes them in a code block's
 * `data-code-language` (the lexer's name for any alias it knows; an alias Pygments does not know
 * is kept as typed, lower-cased, and the block is not highlighted). Lexers separated by `;` or a
 * line end, each `Name|alias,alias`. A list of names taken from Pygments 2.20's lexer table (data, not code).
 */
export const PYGMENTS_LEXERS = `ABAP|abap;ABNF|abnf;ActionScript|actionscript,as;ActionScript 3|actionscript3,as3;Ada|ada,ada95,ada2005
ADL|adl;Agda|agda;Aheui|aheui;Alloy|alloy;AmbientTalk|ambienttalk,ambienttalk/2,at;AMDGPU|amdgpu;Ampl|ampl
Angular2|ng2;ANSYS parametric design language|ansys,apdl;ANTLR|antlr
ANTLR With ActionScript Target|antlr-actionscript,antlr-as;ANTLR With C# Target|antlr-csharp,antlr-c#
ANTLR With CPP Target|antlr-cpp;ANTLR With Java Target|antlr-java;ANTLR With ObjectiveC Target|antlr-objc
ANTLR With Perl Target|antlr-perl;ANTLR With Python Target|antlr-python
ANTLR With Ruby Target|antlr-ruby,antlr-rb;ApacheConf|apacheconf,aconf,apache;APL|apl;AppleScript|applescript
Arduino|arduino;Arrow|arrow;Arturo|arturo,art;ASCII armored|asc,pem;ASN.1|asn1;AspectJ|aspectj;aspx-cs|aspx-cs
aspx-vb|aspx-vb;Asymptote|asymptote,asy;Augeas|augeas;autohotkey|autohotkey,ahk;AutoIt|autoit
Awk|awk,gawk,mawk,nawk;BARE|bare;Base Makefile|basemake;Bash|bash,sh,ksh,zsh,shell,openrc
Bash Session|console,shell-session;Batchfile|batch,bat,dosbatch,winbatch;BBC Basic|bbcbasic;BBCode|bbcode
BC|bc;Bdd|bdd;Befunge|befunge;Berry|berry,be;BibTeX|bibtex,bib;BlitzBasic|blitzbasic,b3d,bplus
BlitzMax|blitzmax,bmax;Blueprint|blueprint;BNF|bnf;Boa|boa;Boo|boo;Boogie|boogie;BQN|bqn
Brainfuck|brainfuck,bf;BST|bst,bst-pybtex;BUGS|bugs,winbugs,openbugs;C|c;C#|csharp,c#,cs;C++|cpp,c++
c-objdump|c-objdump;ca65 assembler|ca65;cADL|cadl;CAmkES|camkes,idl4;Cap'n Proto|capnp;CapDL|capdl
Carbon|carbon;CBM BASIC V2|cbmbas;CDDL|cddl;Ceylon|ceylon;CFEngine3|cfengine3,cf3;cfstatement|cfs
ChaiScript|chaiscript,chai;Chapel|chapel,chpl;Charmci|charmci;Cheetah|cheetah,spitfire;Cirru|cirru;Clay|clay
Clean|clean;Clojure|clojure,clj;ClojureScript|clojurescript,cljs;CMake|cmake;COBOL|cobol;COBOLFree|cobolfree
CodeQL|codeql,ql;CoffeeScript|coffeescript,coffee-script,coffee;Coldfusion CFC|cfc;Coldfusion HTML|cfm
COMAL-80|comal,comal80;Common Lisp|common-lisp,cl,lisp;Component Pascal|componentpascal,cp;cplint|cplint
cpp-objdump|cpp-objdump,c++-objdumb,cxx-objdump;CPSA|cpsa;Crmsh|crmsh,pcmk;Croc|croc;Cryptol|cryptol,cry
Crystal|cr,crystal;Csound Document|csound-document,csound-csd;Csound Orchestra|csound,csound-orc
Csound Score|csound-score,csound-sco;CSS|css;CSS+Django/Jinja|css+django,css+jinja
CSS+Genshi Text|css+genshitext,css+genshi;CSS+Lasso|css+lasso;CSS+Mako|css+mako;CSS+mozpreproc|css+mozpreproc
CSS+Myghty|css+myghty;CSS+PHP|css+php;CSS+Ruby|css+ruby,css+erb;CSS+Smarty|css+smarty;CSS+UL4|css+ul4
CUDA|cuda,cu;Cypher|cypher;Cython|cython,pyx,pyrex;D|d;d-objdump|d-objdump;Darcs Patch|dpatch;Dart|dart
DASM16|dasm16;Dax|dax;Debian Control file|debcontrol,control
Debian Sourcelist|debsources,sourceslist,sources.list;Debian Sources file|debian.sources
Delphi|delphi,pas,pascal,objectpascal;Desktop file|desktop;Devicetree|devicetree,dts;dg|dg;Diff|diff,udiff
Django/Jinja|django,jinja;Docker|docker,dockerfile;DTD|dtd;Duel|duel,jbst,jsonml+bst;Dylan|dylan
Dylan session|dylan-console,dylan-repl;DylanLID|dylan-lid,lid;E-mail|email,eml;Earl Grey|earl-grey,earlgrey,eg
Easytrieve|easytrieve;EBNF|ebnf;eC|ec;ECL|ecl;Eiffel|eiffel;Elixir|elixir,ex,exs;Elixir iex session|iex
Elm|elm;Elpi|elpi;EmacsLisp|emacs-lisp,elisp,emacs;Embedded Ragel|ragel-em;ERB|erb;Erlang|erlang
Erlang erl session|erl;Evoque|evoque;execline|execline;Ezhil|ezhil;F#|fsharp,f#;Factor|factor;Fancy|fancy,fy
Fantom|fan;Felix|felix,flx;Fennel|fennel,fnl;Fift|fift,fif;Fish|fish,fishshell;Flatline|flatline
FloScript|floscript,flo;Forth|forth;Fortran|fortran,f90;FortranFixed|fortranfixed
FoxPro|foxpro,vfp,clipper,xbase;Freefem|freefem;FStar|fstar;FunC|func,fc;Futhark|futhark;g-code|gcode;GAP|gap
GAP session|gap-console,gap-repl;GAS|gas,asm;GDScript|gdscript,gd;Genshi|genshi,kid,xml+genshi,xml+kid
Genshi Text|genshitext;Gettext Catalog|pot,po;Gherkin|gherkin,cucumber;Gleam|gleam;GLSL|glsl;Gnuplot|gnuplot
Go|go,golang;Golo|golo;GoodData-CL|gooddata-cl;GoogleSQL|googlesql,zetasql;Gosu|gosu;Gosu Template|gst
GraphQL|graphql;Graphviz|graphviz,dot;Groff|groff,nroff,man;Groovy|groovy;GSQL|gsql;Haml|haml
Handlebars|handlebars;Hare|hare;Haskell|haskell,hs;Haxe|haxe,hxsl,hx;Hexdump|hexdump;HLSL|hlsl;HSAIL|hsail,hsa
Hspec|hspec;HTML|html;HTML + Angular2|html+ng2;HTML+Cheetah|html+cheetah,html+spitfire,htmlcheetah
HTML+Django/Jinja|html+django,html+jinja,htmldjango;HTML+Evoque|html+evoque;HTML+Genshi|html+genshi,html+kid
HTML+Handlebars|html+handlebars;HTML+Lasso|html+lasso;HTML+Mako|html+mako;HTML+Myghty|html+myghty
HTML+PHP|html+php;HTML+Smarty|html+smarty;HTML+Twig|html+twig;HTML+UL4|html+ul4;HTML+Velocity|html+velocity
HTTP|http;Hxml|haxeml,hxml;Hy|hylang,hy;Hybris|hybris;Icon|icon;IDL|idl;Idris|idris,idr;Igor|igor,igorpro
Inform 6|inform6,i6;Inform 6 template|i6t;Inform 7|inform7,i7;INI|ini,cfg,dosini;Io|io;Ioke|ioke,ik
IPython|ipython2,ipython;IPython console session|ipythonconsole;IPython3|ipython3;IRC logs|irc
Isabelle|isabelle;J|j;JAGS|jags;Janet|janet;Jasmin|jasmin,jasminxt;Java|java;Java Server Page|jsp
JavaScript|javascript,js;JavaScript+Cheetah|javascript+cheetah,js+cheetah,javascript+spitfire,js+spitfire
JavaScript+Django/Jinja|javascript+django,js+django,javascript+jinja,js+jinja
JavaScript+Genshi Text|js+genshitext,js+genshi,javascript+genshitext,javascript+genshi
JavaScript+Lasso|javascript+lasso,js+lasso;JavaScript+Mako|javascript+mako,js+mako
Javascript+mozpreproc|javascript+mozpreproc;JavaScript+Myghty|javascript+myghty,js+myghty
JavaScript+PHP|javascript+php,js+php;JavaScript+Ruby|javascript+ruby,js+ruby,javascript+erb,js+erb
JavaScript+Smarty|javascript+smarty,js+smarty;Javascript+UL4|js+ul4;JCL|jcl;JMESPath|jmespath,jp;JSGF|jsgf
JSLT|jslt;JSON|json,json-object;JSON-LD|jsonld,json-ld;JSON5|json5;Jsonnet|jsonnet;JSX|jsx,react
Julia|julia,jl;Julia console|jlcon,julia-repl;Juttle|juttle;K|k;Kal|kal
Kconfig|kconfig,menuconfig,linux-config,kernel-config;Kernel log|kmsg,dmesg;Koka|koka;Kotlin|kotlin;Kuin|kuin
Kusto|kql,kusto;Lasso|lasso,lassoscript;LDAP configuration file|ldapconf,ldaprc;LDIF|ldif;Lean|lean,lean3
Lean4|lean4;LessCss|less;Lighttpd configuration file|lighttpd,lighty;LilyPond|lilypond;Limbo|limbo
liquid|liquid;Literate Agda|literate-agda,lagda;Literate Cryptol|literate-cryptol,lcryptol,lcry
Literate Haskell|literate-haskell,lhaskell,lhs;Literate Idris|literate-idris,lidris,lidr
LiveScript|livescript,live-script;LLVM|llvm;LLVM-MIR|llvm-mir;LLVM-MIR Body|llvm-mir-body;Logos|logos
Logtalk|logtalk;LSL|lsl;Lua|lua;Luau|luau;Macaulay2|macaulay2;Makefile|make,makefile,mf,bsdmake;Mako|mako
Maple|maple;MAQL|maql;Markdown|markdown,md;Mask|mask;Mason|mason;Mathematica|mathematica,mma,nb,wl,wolfram
Matlab|matlab;Matlab session|matlabsession;Maxima|maxima,macsyma;MCFunction|mcfunction,mcf;MCSchema|mcschema
Meson|meson,meson.build;MIME|mime;MiniD|minid;MiniScript|miniscript,ms;MIPS|mips;Modelica|modelica
Modula-2|modula2,m2;MoinMoin/Trac Wiki markup|trac-wiki,moin;Mojo|mojo,🔥;Monkey|monkey;Monte|monte
MOOCode|moocode,moo;MoonScript|moonscript,moon;Mosel|mosel;mozhashpreproc|mozhashpreproc
mozpercentpreproc|mozpercentpreproc;MQL|mql,mq4,mq5,mql4,mql5;Mscgen|mscgen,msc;MSDOS Session|doscon
MuPAD|mupad;MXML|mxml;Myghty|myghty;MySQL|mysql;NASM|nasm;NCL|ncl;Nemerle|nemerle;nesC|nesc
NestedText|nestedtext,nt;NewLisp|newlisp;Newspeak|newspeak;Nginx configuration file|nginx;Nimrod|nimrod,nim
Nit|nit;Nix|nixos,nix;Node.js REPL console session|nodejsrepl;Notmuch|notmuch;NSIS|nsis,nsi,nsh
Numba_IR|numba_ir,numbair;NumPy|numpy;NuSMV|nusmv;objdump|objdump;objdump-nasm|objdump-nasm
Objective-C|objective-c,objectivec,obj-c,objc;Objective-C++|objective-c++,objectivec++,obj-c++,objc++
Objective-J|objective-j,objectivej,obj-j,objj;OCaml|ocaml;Octave|octave;ODIN|odin
OMG Interface Definition Language|omg-idl;Ooc|ooc;Opa|opa;OpenEdge ABL|openedge,abl,progress;OpenSCAD|openscad
Org Mode|org,orgmode,org-mode;PacmanConf|pacmanconf;Pan|pan;ParaSail|parasail;Pawn|pawn;PDDL|pddl;PEG|peg
Perl|perl,pl;Perl6|perl6,pl6,raku;Phix|phix;PHP|php,php3,php4,php5;Pig|pig;Pike|pike;PkgConfig|pkgconfig
PL/pgSQL|plpgsql;Pointless|pointless;Pony|pony;Portugol|portugol
PostgreSQL console (psql)|psql,postgresql-console,postgres-console;PostgreSQL EXPLAIN dialect|postgres-explain
PostgreSQL SQL dialect|postgresql,postgres;PostScript|postscript,postscr;POVRay|pov
PowerShell|powershell,pwsh,posh,ps1,psm1;PowerShell Session|pwsh-session,ps1con;Praat|praat;Procfile|procfile
Prolog|prolog;Promela|promela;PromQL|promql;Properties|properties,jproperties;Protocol Buffer|protobuf,proto
PRQL|prql;PsySH console session for PHP|psysh;PTX|ptx;Pug|pug,jade;Puppet|puppet;PyPy Log|pypylog,pypy
Python|python,py,sage,python3,py3,bazel,starlark,pyi;Python 2.x|python2,py2;Python 2.x Traceback|py2tb
Python console session|pycon,python-console;Python Traceback|pytb,py3tb;Python+UL4|py+ul4;Q|q
QBasic|qbasic,basic;Qlik|qlik,qlikview,qliksense,qlikscript;QML|qml,qbs;QVTO|qvto,qvt;Racket|racket,rkt
Ragel|ragel;Ragel in C Host|ragel-c;Ragel in CPP Host|ragel-cpp;Ragel in D Host|ragel-d
Ragel in Java Host|ragel-java;Ragel in Objective C Host|ragel-objc;Ragel in Ruby Host|ragel-ruby,ragel-rb
RConsole|rconsole,rout;Rd|rd;ReasonML|reasonml,reason;REBOL|rebol;Red|red,red/system;Redcode|redcode
reg|registry;Rego|rego;Relax-NG Compact|rng-compact,rnc;Rell|rell;ResourceBundle|resourcebundle,resource
reStructuredText|restructuredtext,rst,rest;Rexx|rexx,arexx;RHTML|rhtml,html+erb,html+ruby;Ride|ride;Rita|rita
Roboconf Graph|roboconf-graph;Roboconf Instances|roboconf-instances;RobotFramework|robotframework
Rocq Prover|coq,rocq,rocq-prover;RPMSpec|spec;RQL|rql;RSL|rsl;Ruby|ruby,rb,duby;Ruby irb session|rbcon,irb
Rust|rust,rs;S|splus,s,r;SARL|sarl;SAS|sas;Sass|sass;Savi|savi;Scala|scala;Scalate Server Page|ssp;Scaml|scaml
scdoc|scdoc,scd;Scheme|scheme,scm;Scilab|scilab;SCSS|scss;Sed|sed,gsed,ssed;Shen|shen;ShExC|shexc,shex
Sieve|sieve;Silver|silver;Singularity|singularity;Slash|slash;Slim|slim;Slurm|slurm,sbatch;Smali|smali
Smalltalk|smalltalk,squeak,st;SmartGameFormat|sgf;Smarty|smarty;Smithy|smithy;SNBT|snbt;Snobol|snobol
Snowball|snowball;Solidity|solidity;Soong|androidbp,bp,soong;Sophia|sophia;SourcePawn|sp;SPARQL|sparql
Spice|spice,spicelang;SQL|sql;SQL+Jinja|sql+jinja;sqlite3con|sqlite3;SquidConf|squidconf,squid.conf,squid
Srcinfo|srcinfo;Stan|stan;Standard ML|sml;Stata|stata,do;SuperCollider|supercollider,sc;Swift|swift;SWIG|swig
Systemd|systemd;systemverilog|systemverilog,sv;TableGen|tablegen,td;Tact|tact;TADS 3|tads3;Tal|tal,uxntal
TAP|tap;TASM|tasm;Tcl|tcl;Tcsh|tcsh,csh;Tcsh Session|tcshcon;Tea|tea;teal|teal
Tera Term macro|teratermmacro,teraterm,ttl;Termcap|termcap;Terminfo|terminfo;Terraform|terraform,tf,hcl
TeX|tex,latex;Text only|text;Text output|output;ThingsDB|ti,thingsdb;Thrift|thrift;tiddler|tid;Tl-b|tlb
TLS Presentation Language|tls;Todotxt|todotxt;TOML|toml;TrafficScript|trafficscript,rts
Transact-SQL|tsql,t-sql;Treetop|treetop;TSX|tsx;Turtle|turtle;Twig|twig;TypeScript|typescript,ts
Typographic Number Theory|tnt;TypoScript|typoscript;TypoScriptCssData|typoscriptcssdata
TypoScriptHtmlData|typoscripthtmldata;Typst|typst;ucode|ucode;UL4|ul4;Unicon|unicon
Unix/Linux config files|unixconfig,linuxconfig;UrbiScript|urbiscript;urlencoded|urlencoded;USD|usd,usda
Vala|vala,vapi;VB.net|vb.net,vbnet,lobas,oobas,sobas,visual-basic,visualbasic;VBScript|vbscript;VCL|vcl
VCLSnippets|vclsnippets,vclsnippet;VCTreeStatus|vctreestatus;Velocity|velocity;Verifpal|verifpal
verilog|verilog,v;VGL|vgl;vhdl|vhdl;VimL|vim;Visual Prolog|visualprolog
Visual Prolog Grammar|visualprologgrammar;Vue|vue;Vyper|vyper;WDiff|wdiff;Web IDL|webidl;WebAssembly|wast,wat
WebGPU Shading Language|wgsl;Whiley|whiley;Wikitext|wikitext,mediawiki;World of Warcraft TOC|wowtoc;Wren|wren
X++|xpp,x++;X10|x10,xten;XML|xml;XML+Cheetah|xml+cheetah,xml+spitfire;XML+Django/Jinja|xml+django,xml+jinja
XML+Evoque|xml+evoque;XML+Lasso|xml+lasso;XML+Mako|xml+mako;XML+Myghty|xml+myghty;XML+PHP|xml+php
XML+Ruby|xml+ruby,xml+erb;XML+Smarty|xml+smarty;XML+UL4|xml+ul4;XML+Velocity|xml+velocity;Xorg|xorg.conf
XQuery|xquery,xqy,xq,xql,xqm;XSLT|xslt;Xtend|xtend;xtlang|extempore;XUL+mozpreproc|xul+mozpreproc;YAML|yaml
YAML+Jinja|yaml+jinja,salt,sls;YANG|yang;YARA|yara,yar;Zeek|zeek,bro;Zephir|zephir;Zig|zig;Zone|zone`;

/** Alias (lower case) → Pygments' lexer name. */
export const LEXER_NAMES: ReadonlyMap<string, string> = new Map(
  PYGMENTS_LEXERS.split(/[;\n]/).flatMap((lexer) => {
    const [name, aliases] = lexer.split('|') as [string, string];
    return aliases.split(',').map((alias): [string, string] => [alias, name]);
  }),
);
