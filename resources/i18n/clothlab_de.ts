<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name></name>
    <message>
        <source>silk</source>
        <translation>Seide</translation>
    </message>
    <message>
        <source>cotton</source>
        <translation>Baumwolle</translation>
    </message>
    <message>
        <source>denim</source>
        <translation>Denim</translation>
    </message>
    <message>
        <source>leather</source>
        <translation>Leder</translation>
    </message>
    <message>
        <source>paper</source>
        <translation>Papier</translation>
    </message>
    <message>
        <source>wool</source>
        <translation>Wolle</translation>
    </message>
    <message>
        <source>polyester</source>
        <translation>Polyester</translation>
    </message>
    <message>
        <source>Classic model</source>
        <translation>Klassisches Modell</translation>
    </message>
    <message>
        <source>Beyond classic</source>
        <translation>Über das klassische Modell hinaus</translation>
    </message>
    <message>
        <source>expected on/off, got {value}</source>
        <translation>an/aus erwartet, erhalten: {value}</translation>
    </message>
    <message>
        <source>expected an integer, got {value}</source>
        <translation>ganze Zahl erwartet, erhalten: {value}</translation>
    </message>
    <message>
        <source>expected a number, got {value}</source>
        <translation>Zahl erwartet, erhalten: {value}</translation>
    </message>
    <message>
        <source>expected three finite numbers within ±{limit:g}</source>
        <translation>drei endliche Zahlen innerhalb von ±{limit:g} erwartet</translation>
    </message>
    <message>
        <source>{value} is not a finite number</source>
        <translation>{value} ist keine endliche Zahl</translation>
    </message>
    <message>
        <source>{value} is outside {minimum:g}…{maximum:g} {unit}</source>
        <translation>{value} liegt außerhalb von {minimum:g}…{maximum:g} {unit}</translation>
    </message>
    <message>
        <source>an integer of about {digits} digits</source>
        <translation>eine ganze Zahl mit etwa {digits} Ziffern</translation>
    </message>
    <message>
        <source>Solver passes</source>
        <translation>Löser-Durchgänge</translation>
    </message>
    <message>
        <source>Gauss–Seidel passes over every link per step; more passes leave less stretch.</source>
        <translation>Gauß-Seidel-Durchgänge über jede Verbindung pro Schritt; mehr Durchgänge lassen weniger Dehnung übrig.</translation>
    </message>
    <message>
        <source>Stiffness</source>
        <translation>Steifigkeit</translation>
    </message>
    <message>
        <source>Fraction of each link&apos;s length error corrected per visit (a solver setting, not a fabric property). At 0 no link would act at all, so it starts at 0.01.</source>
        <translation>Anteil des Längenfehlers jeder Verbindung, der pro Besuch korrigiert wird (eine Einstellung des Lösers, keine Stoffeigenschaft). Bei 0 würde keine Verbindung wirken, daher beginnt der Bereich bei 0,01.</translation>
    </message>
    <message>
        <source>Damping</source>
        <translation>Dämpfung</translation>
    </message>
    <message>
        <source>Fraction of the motion kept per 1/120 s by the Verlet predict (0.994 classic); other time steps and substeps use damping^(Δt·120), so it damps the same per second.</source>
        <translation>Anteil der Bewegung, den die Verlet-Vorhersage pro 1/120 s behält (klassisch 0,994); andere Zeitschritte und Teilschritte verwenden Dämpfung^(Δt·120), sodass pro Sekunde gleich stark gedämpft wird.</translation>
    </message>
    <message>
        <source>Gravity</source>
        <translation>Schwerkraft</translation>
    </message>
    <message>
        <source>units/s²</source>
        <translation>LE/s²</translation>
    </message>
    <message>
        <source>Downward acceleration (−y).</source>
        <translation>Beschleunigung nach unten (−y).</translation>
    </message>
    <message>
        <source>Wind</source>
        <translation>Wind</translation>
    </message>
    <message>
        <source>Gusting acceleration along +z: wind·(0.6 + 0.4·sin(2t + x)).</source>
        <translation>Böige Beschleunigung entlang +z: Wind·(0.6 + 0.4·sin(2t + x)).</translation>
    </message>
    <message>
        <source>Time step</source>
        <translation>Zeitschritt</translation>
    </message>
    <message>
        <source>Model time advanced per step (1/120 s in the classic model).</source>
        <translation>Modellzeit, um die ein Schritt voranschreitet (1/120 s im klassischen Modell).</translation>
    </message>
    <message>
        <source>Fabric solver</source>
        <translation>Gewebe-Löser</translation>
    </message>
    <message>
        <source>links together, then passes</source>
        <translation>Verbindungen gemeinsam, dann Durchgänge</translation>
    </message>
    <message>
        <source>one projective solve</source>
        <translation>eine projektive Lösung</translation>
    </message>
    <message>
        <source>links together by multigrid, then passes</source>
        <translation>Verbindungen gemeinsam per Mehrgitter, dann Durchgänge</translation>
    </message>
    <message>
        <source>Link order</source>
        <translation>Reihenfolge</translation>
    </message>
    <message>
        <source>Order of the Gauss–Seidel passes: automatic (classic order on small sheets; from 20 000 links colour order on one thread or two, whichever its timing finds faster), the classic family order, or independent sets (colours) on one or two threads.</source>
        <translation>Reihenfolge der Gauß-Seidel-Durchgänge: automatisch (klassische Reihenfolge bei kleinen Tüchern; ab 20 000 Verbindungen Farbreihenfolge auf einem oder zwei Threads, je nachdem, was die Zeitmessung als schneller ermittelt), die klassische Familienreihenfolge oder unabhängige Mengen (Farben) auf einem oder zwei Threads.</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>automatisch</translation>
    </message>
    <message>
        <source>classic order</source>
        <translation>klassisch</translation>
    </message>
    <message>
        <source>colour order</source>
        <translation>Farben</translation>
    </message>
    <message>
        <source>colour order, 2 threads</source>
        <translation>Farben, 2 Threads</translation>
    </message>
    <message>
        <source>How a run whose every body has an SI fabric solves it each substep: its links together (conjugate gradients preconditioned by their factored system), then passes for bending, whose substeps grow with the mesh; or stretch, shear, bending and twist in one projective solve of a matrix factored once: any substeps, shear that does not resist stretch, but slow to converge on a stiff fabric while it moves; or the links together preconditioned by a multigrid cycle on the sheets&apos; grids while the cloth moves, whose cost per iteration grows only as the mesh does, and by their factored system once it rests (RESEARCH.md §8).</source>
        <translation>Wie ein Lauf, dessen Körper alle einen SI-Stoff haben, ihn in jedem Teilschritt löst: seine Verbindungen gemeinsam (konjugierte Gradienten, vorkonditioniert mit ihrem faktorisierten System), dann Durchgänge für die Biegung, deren Teilschritte mit dem Netz wachsen; oder Dehnung, Scherung, Biegung und Verdrillung in einer projektiven Lösung mit einer einmal faktorisierten Matrix: beliebige Teilschritte, Scherung, die der Dehnung nicht widersteht, aber langsame Konvergenz bei einem steifen Stoff in Bewegung; oder die Verbindungen gemeinsam, vorkonditioniert mit einem Mehrgitterzyklus auf den Gittern der Tücher, solange sich der Stoff bewegt, dessen Kosten je Iteration nur so wachsen wie das Netz, und mit ihrem faktorisierten System, sobald er ruht (RESEARCH.md §8).</translation>
    </message>
    <message>
        <source>Ball</source>
        <translation>Kugel</translation>
    </message>
    <message>
        <source>Collide free particles with the ball.</source>
        <translation>Freie Partikel kollidieren mit der Kugel.</translation>
    </message>
    <message>
        <source>Ball centre</source>
        <translation>Kugelmittelpunkt</translation>
    </message>
    <message>
        <source>units</source>
        <translation>LE</translation>
    </message>
    <message>
        <source>Centre of the ball.</source>
        <translation>Mittelpunkt der Kugel.</translation>
    </message>
    <message>
        <source>Ball radius</source>
        <translation>Kugelradius</translation>
    </message>
    <message>
        <source>Radius of the ball.</source>
        <translation>Radius der Kugel.</translation>
    </message>
    <message>
        <source>Floor</source>
        <translation>Boden</translation>
    </message>
    <message>
        <source>Keep every particle above the floor.</source>
        <translation>Jedes Partikel über dem Boden halten.</translation>
    </message>
    <message>
        <source>Floor height</source>
        <translation>Bodenhöhe</translation>
    </message>
    <message>
        <source>Height of the floor (y).</source>
        <translation>Höhe des Bodens (y).</translation>
    </message>
    <message>
        <source>XPBD</source>
        <translation>XPBD</translation>
    </message>
    <message>
        <source>Extended PBD: links get a compliance instead of a stiffness factor, so their stretch no longer depends on passes or time step.</source>
        <translation>Erweitertes PBD: Verbindungen erhalten eine Nachgiebigkeit statt eines Steifigkeitsfaktors, sodass ihre Dehnung nicht mehr von Durchgängen oder Zeitschritt abhängt.</translation>
    </message>
    <message>
        <source>Link compliance</source>
        <translation>Nachgiebigkeit</translation>
    </message>
    <message>
        <source>units/force</source>
        <translation>LE/Kraft</translation>
    </message>
    <message>
        <source>XPBD: inverse stiffness of every link (0 = inextensible).</source>
        <translation>XPBD: inverse Steifigkeit jeder Verbindung (0 = undehnbar).</translation>
    </message>
    <message>
        <source>Substeps</source>
        <translation>Teilschritte</translation>
    </message>
    <message>
        <source>Steps of Δt/substeps each, every one a full predict and passes.</source>
        <translation>Schritte von je Δt/Teilschritte, jeder mit vollständiger Vorhersage und Durchgängen.</translation>
    </message>
    <message>
        <source>Tethers</source>
        <translation>Haltebänder</translation>
    </message>
    <message>
        <source>Long-range attachments: no particle may get further from a pin than its distance along the cloth at rest.</source>
        <translation>Weitreichende Verbindungen: Kein Partikel darf sich weiter von einem Fixpunkt entfernen als sein Abstand entlang des Tuchs in Ruhe.</translation>
    </message>
    <message>
        <source>Bending</source>
        <translation>Biegung</translation>
    </message>
    <message>
        <source>Skip-one links across and down the sheet resist folding.</source>
        <translation>Verbindungen, die quer und längs über das Tuch je ein Partikel überspringen, widerstehen dem Falten.</translation>
    </message>
    <message>
        <source>Bend compliance</source>
        <translation>Biegenachgiebigkeit</translation>
    </message>
    <message>
        <source>Inverse stiffness of the bending links (0 = rigid).</source>
        <translation>Inverse Steifigkeit der Biegeverbindungen (0 = starr).</translation>
    </message>
    <message>
        <source>Static friction</source>
        <translation>Haftreibung</translation>
    </message>
    <message>
        <source>Coulomb static coefficient on the ball, obstacles and floor (0 = classic, none).</source>
        <translation>Coulomb-Haftreibungskoeffizient an Kugel, Hindernissen und Boden (0 = klassisch, keine).</translation>
    </message>
    <message>
        <source>Kinetic friction</source>
        <translation>Gleitreibung</translation>
    </message>
    <message>
        <source>Coulomb kinetic coefficient on the ball, obstacles and floor.</source>
        <translation>Coulomb-Gleitreibungskoeffizient an Kugel, Hindernissen und Boden.</translation>
    </message>
    <message>
        <source>Aerodynamic wind</source>
        <translation>Aerodynamisch</translation>
    </message>
    <message>
        <source>Wind as air moving at `wind` units/s, pressing on each triangle by its normal and its own motion, instead of a uniform push.</source>
        <translation>Wind als Luft, die sich mit `wind` Einheiten/s bewegt und auf jedes Dreieck gemäß seiner Normalen und seiner eigenen Bewegung drückt, statt eines gleichmäßigen Schubs.</translation>
    </message>
    <message>
        <source>Wind heading</source>
        <translation>Windrichtung</translation>
    </message>
    <message>
        <source>Aerodynamic wind direction about +y: 0° blows along +z, 90° along +x.</source>
        <translation>Richtung des aerodynamischen Winds um +y: Bei 0° weht er entlang +z, bei 90° entlang +x.</translation>
    </message>
    <message>
        <source>Drag</source>
        <translation>Widerstand</translation>
    </message>
    <message>
        <source>1/units</source>
        <translation>1/LE</translation>
    </message>
    <message>
        <source>Aerodynamic pressure coefficient along the triangle normal (per unit area, mass 1).</source>
        <translation>Aerodynamischer Druckbeiwert entlang der Dreiecksnormalen (pro Flächeneinheit, Masse 1).</translation>
    </message>
    <message>
        <source>Lift</source>
        <translation>Auftrieb</translation>
    </message>
    <message>
        <source>Aerodynamic coefficient across the flow, in the plane of the triangle.</source>
        <translation>Aerodynamischer Beiwert quer zur Strömung, in der Ebene des Dreiecks.</translation>
    </message>
    <message>
        <source>Tearing</source>
        <translation>Reißen</translation>
    </message>
    <message>
        <source>A link breaks when stretched past the tear ratio.</source>
        <translation>Eine Verbindung reißt, wenn sie über das Reißverhältnis hinaus gedehnt wird.</translation>
    </message>
    <message>
        <source>Tear ratio</source>
        <translation>Reißverhältnis</translation>
    </message>
    <message>
        <source>× rest</source>
        <translation>× L₀</translation>
    </message>
    <message>
        <source>Length, in rest lengths, at which a link tears.</source>
        <translation>Länge in Ruhelängen, bei der eine Verbindung reißt.</translation>
    </message>
    <message>
        <source>Keep volume</source>
        <translation>Volumen erhalten</translation>
    </message>
    <message>
        <source>Every tetrahedron of the soft block keeps its rest volume.</source>
        <translation>Jeder Tetraeder des weichen Blocks behält sein Ruhevolumen.</translation>
    </message>
    <message>
        <source>Cells right side out</source>
        <translation>Zellen richtig herum</translation>
    </message>
    <message>
        <source>A soft block&apos;s tetrahedron squashed inside out (negative volume) is pushed back to its rest volume. Links alone hold a mirrored cell as well as the right one, so a hard squash could leave the block inside out.</source>
        <translation>Ein Tetraeder des weichen Blocks, der umgestülpt gequetscht wurde (negatives Volumen), wird auf sein Ruhevolumen zurückgedrückt. Verbindungen allein halten eine gespiegelte Zelle ebenso wie die richtige, daher könnte starkes Quetschen den Block umgestülpt zurücklassen.</translation>
    </message>
    <message>
        <source>Self-collision</source>
        <translation>Selbstkollision</translation>
    </message>
    <message>
        <source>Particles keep at least the collision distance apart (unless closer at rest).</source>
        <translation>Partikel halten mindestens den Kollisionsabstand voneinander (außer sie sind in Ruhe näher).</translation>
    </message>
    <message>
        <source>Collision distance</source>
        <translation>Kollisionsabstand</translation>
    </message>
    <message>
        <source>Minimum distance between particles under self-collision; 0 = automatic, 0.75 × the finest rest spacing (0.15 on a 0.2 grid): no layer gets through the middle of a cell, and a finer sheet keeps its proportions.</source>
        <translation>Mindestabstand zwischen Partikeln bei Selbstkollision; 0 = automatisch, 0,75 × der feinste Ruheabstand (0,15 bei einem 0,2-Raster): keine Lage gelangt durch die Mitte einer Zelle, und ein feineres Tuch behält seine Proportionen.</translation>
    </message>
    <message>
        <source>Start imperfection</source>
        <translation>Unebenheit</translation>
    </message>
    <message>
        <source>Each free particle of a sheet or disc (and of a block&apos;s surface) starts this far out of its faces&apos; plane, at random (the spread of a normal distribution; the same draw every run). No real cloth lies perfectly flat: a flat start on a square grid lets the grid&apos;s symmetry choose how it buckles and folds. Takes effect when the scene starts.</source>
        <translation>Jedes freie Teilchen eines Tuchs oder einer Scheibe (und der Oberfläche eines Blocks) beginnt so weit außerhalb der Ebene seiner Flächen, zufällig (die Streuung einer Normalverteilung; bei jedem Lauf dieselbe Ziehung). Kein echter Stoff liegt vollkommen flach: Ein flacher Start auf einem quadratischen Gitter lässt die Symmetrie des Gitters bestimmen, wie er knickt und Falten wirft. Wirkt beim Start der Szene.</translation>
    </message>
    <message>
        <source>Specimen</source>
        <translation>Prüfling</translation>
    </message>
    <message>
        <source>Which draw of the start imperfection the scene starts from: the same number, the same start; another number, another specimen, which buckles and folds its own way, as no two real specimens drape alike. Takes effect when the scene starts.</source>
        <translation>Welche Ziehung der Unebenheit beim Start die Szene nimmt: dieselbe Nummer, derselbe Start; eine andere Nummer, eine andere Probe, die auf ihre eigene Weise ausbeult und Falten wirft, wie keine zwei echten Proben gleich fallen. Wirkt beim Start der Szene.</translation>
    </message>
    <message>
        <source>Height</source>
        <translation>Höhe</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>Geschwindigkeit</translation>
    </message>
    <message>
        <source>Tension around</source>
        <translation>Zugkraft ringsum</translation>
    </message>
    <message>
        <source>particle {particle} has a probe already</source>
        <translation>Partikel {particle} hat bereits eine Sonde</translation>
    </message>
    <message>
        <source>at most {count} probes: take one off first</source>
        <translation>höchstens {count} Sonden: Entfernen Sie zuerst eine</translation>
    </message>
    <message>
        <source>probe slot {slot} is not within 0…{last}</source>
        <translation>Sondenplatz {slot} liegt nicht innerhalb von 0…{last}</translation>
    </message>
    <message>
        <source>particle {particle} has no probe</source>
        <translation>Partikel {particle} hat keine Sonde</translation>
    </message>
    <message>
        <source>Sag</source>
        <translation>Durchhang</translation>
    </message>
    <message>
        <source>Distance from the line between the top corners down to the lowest top-edge particle.</source>
        <translation>Abstand von der Linie zwischen den oberen Ecken hinunter zum tiefsten Partikel der Oberkante.</translation>
    </message>
    <message>
        <source>Volume</source>
        <translation>Volumen</translation>
    </message>
    <message>
        <source>Volume of the soft block (its cubes as six tetrahedra each); rest volume 0.512.</source>
        <translation>Volumen des weichen Blocks (seine Würfel als je sechs Tetraeder); Ruhevolumen 0,512.</translation>
    </message>
    <message>
        <source>Motion</source>
        <translation>Bewegung</translation>
    </message>
    <message>
        <source>Mean particle speed |x − x_prev| / Δt.</source>
        <translation>Mittlere Partikelgeschwindigkeit |x − x_prev| / Δt.</translation>
    </message>
    <message>
        <source>mean</source>
        <translation>Mittelwert</translation>
    </message>
    <message>
        <source>Fastest particle</source>
        <translation>Schnellstes Partikel</translation>
    </message>
    <message>
        <source>Speed of the fastest particle, |x − x_prev| / Δt (Motion is the mean of the same speeds).</source>
        <translation>Geschwindigkeit des schnellsten Partikels, |x − x_prev| / Δt (Bewegung ist der Mittelwert derselben Geschwindigkeiten).</translation>
    </message>
    <message>
        <source>fastest</source>
        <translation>schnellstes</translation>
    </message>
    <message>
        <source>Max stretch</source>
        <translation>Max. Dehnung</translation>
    </message>
    <message>
        <source>Largest (L − rest) / rest over live links: the error the passes leave.</source>
        <translation>Größtes (L − Ruhe) / Ruhe über die intakten Verbindungen: der Fehler, den die Durchgänge übrig lassen.</translation>
    </message>
    <message>
        <source>Residual</source>
        <translation>Residuum</translation>
    </message>
    <message>
        <source>How far the solver is from converged: max |C + α̃λ| / rest over live links (XPBD), max |L − rest| / rest with the classic rule. More passes or substeps lower it.</source>
        <translation>Wie weit der Löser von der Konvergenz entfernt ist: max |C + α̃λ| / Ruhe über die intakten Verbindungen (XPBD), max |L − Ruhe| / Ruhe mit der klassischen Regel. Mehr Durchgänge oder Teilschritte senken es.</translation>
    </message>
    <message>
        <source>Kinetic energy</source>
        <translation>Kinetische Energie</translation>
    </message>
    <message>
        <source>Potential energy</source>
        <translation>Potenzielle Energie</translation>
    </message>
    <message>
        <source>½ Σ m v² over all particles: mass 1 each, or in kg with SI fabrics.</source>
        <translation>½ Σ m v² über alle Partikel: Masse je 1, oder in kg bei SI-Stoffen.</translation>
    </message>
    <message>
        <source>Σ m·g·y over all particles (mass 1 each, or in kg with SI fabrics), from y = 0; y midway through the last step.</source>
        <translation>Σ m·g·y über alle Partikel (Masse je 1, oder in kg bei SI-Stoffen), ab y = 0; y in der Mitte des letzten Schritts.</translation>
    </message>
    <message>
        <source>Energy</source>
        <translation>Energie</translation>
    </message>
    <message>
        <source>Kinetic + potential energy. What the damping, the solver and the wind change.</source>
        <translation>Kinetische + potenzielle Energie. Was Dämpfung, Löser und Wind verändern.</translation>
    </message>
    <message>
        <source>Damping loss</source>
        <translation>Dämpfungsverlust</translation>
    </message>
    <message>
        <source>Energy the Verlet damping took out in the last step.</source>
        <translation>Energie, die die Verlet-Dämpfung im letzten Schritt entzogen hat.</translation>
    </message>
    <message>
        <source>Wind work</source>
        <translation>Windarbeit</translation>
    </message>
    <message>
        <source>Energy the gusting wind put in during the last step (aerodynamic wind: counted in the solver loss).</source>
        <translation>Energie, die der böige Wind im letzten Schritt zugeführt hat (aerodynamischer Wind: im Löserverlust enthalten).</translation>
    </message>
    <message>
        <source>Solver loss</source>
        <translation>Löserverlust</translation>
    </message>
    <message>
        <source>Energy the links, collisions, pins and grab took out in the last step (&lt; 0: put in).</source>
        <translation>Energie, die Verbindungen, Kollisionen, Fixpunkte und Greifen im letzten Schritt entzogen haben (&lt; 0: zugeführt).</translation>
    </message>
    <message>
        <source>Pin force</source>
        <translation>Fixpunktkraft</translation>
    </message>
    <message>
        <source>Net force the pins hold the cloth with (|Σ|): what every constraint pulls them with, from what the solver moved, and their own particles&apos; weight. At rest, with nothing else touching, it is the cloth&apos;s weight. In N with SI fabrics; in model units (mass 1 a particle) otherwise.</source>
        <translation>Gesamtkraft, mit der die Fixpunkte das Tuch halten (|Σ|): womit jede Bedingung an ihnen zieht, ermittelt aus dem, was der Löser bewegt hat, plus das Gewicht ihrer eigenen Partikel. In Ruhe und ohne weitere Berührung ist sie das Gewicht des Tuchs. In N bei SI-Stoffen, sonst in Modelleinheiten (ein Partikel hat die Masse 1).</translation>
    </message>
    <message>
        <source>pins</source>
        <translation>Fixpunkte</translation>
    </message>
    <message>
        <source>Max tension</source>
        <translation>Max. Zugkraft</translation>
    </message>
    <message>
        <source>The largest pull of any one link on its ends, from what the solver moved over the last step (the tension map colours every link by it). In N with SI fabrics; in model units (mass 1 a particle) otherwise.</source>
        <translation>Der größte Zug einer einzelnen Verbindung an ihren Enden, ermittelt aus dem, was der Löser im letzten Schritt bewegt hat (die Zugkraftkarte färbt jede Verbindung danach ein). In N bei SI-Stoffen, sonst in Modelleinheiten (ein Partikel hat die Masse 1).</translation>
    </message>
    <message>
        <source>largest link</source>
        <translation>größte Verbindung</translation>
    </message>
    <message>
        <source>Contact force</source>
        <translation>Kontaktkraft</translation>
    </message>
    <message>
        <source>Total normal force the floor, the ball and the obstacles push the cloth with (at rest on them: its weight, less what the pins hold). In N with SI fabrics; in model units (mass 1 a particle) otherwise.</source>
        <translation>Gesamte Normalkraft, mit der Boden, Kugel und Hindernisse gegen das Tuch drücken (wenn es auf ihnen ruht: sein Gewicht abzüglich dessen, was die Fixpunkte halten). In N bei SI-Stoffen, sonst in Modelleinheiten (ein Partikel hat die Masse 1).</translation>
    </message>
    <message>
        <source>contact</source>
        <translation>Kontakt</translation>
    </message>
    <message>
        <source>Tip drop</source>
        <translation>Spitzenabsenkung</translation>
    </message>
    <message>
        <source>Cantilever: how far the free end hangs below the platform&apos;s edge.</source>
        <translation>Cantilever-Test: wie weit das freie Ende unter die Kante der Plattform hängt.</translation>
    </message>
    <message>
        <source>Chord angle</source>
        <translation>Sehnenwinkel</translation>
    </message>
    <message>
        <source>Cantilever: degrees below horizontal of the line from the platform&apos;s edge to the tip (ASTM D1388 reads the bending length where it is 41.5°).</source>
        <translation>Cantilever-Test: Winkel unter der Horizontalen der Linie von der Plattformkante zur Spitze (ASTM D1388 liest die Biegelänge bei 41,5° ab).</translation>
    </message>
    <message>
        <source>Bending length</source>
        <translation>Biegelänge</translation>
    </message>
    <message>
        <source>Cantilever: Peirce&apos;s c = l·(cos(θ/2) / (8·tan θ))^(1/3) from the overhang l and the chord angle θ; c³ = B / (ρ·g).</source>
        <translation>Cantilever-Test: Peirces c = l·(cos(θ/2) / (8·tan θ))^(1/3) aus dem Überhang l und dem Sehnenwinkel θ; c³ = B / (ρ·g).</translation>
    </message>
    <message>
        <source>Elongation</source>
        <translation>Längung</translation>
    </message>
    <message>
        <source>Hanging strip: how much longer than at rest, top row to bottom row (ρ·g·L²/(2k) for a strip of stretch stiffness k at small strain).</source>
        <translation>Hängender Streifen: wie viel länger als in Ruhe, von der obersten zur untersten Reihe (ρ·g·L²/(2k) für einen Streifen der Dehnsteifigkeit k bei kleiner Dehnung).</translation>
    </message>
    <message>
        <source>Drape coefficient</source>
        <translation>Fallkoeffizient</translation>
    </message>
    <message>
        <source>Drape test: (shadow area − support area) / (specimen area − support area) × 100, the shadow cast straight down, folds and overlaps counted once (Cusick).</source>
        <translation>Faltenwurftest: (Schattenfläche − Auflagefläche) / (Probenfläche − Auflagefläche) × 100, der Schatten senkrecht nach unten geworfen, Falten und Überlappungen einfach gezählt (Cusick).</translation>
    </message>
    <message>
        <source>Folds</source>
        <translation>Falten</translation>
    </message>
    <message>
        <source>Drape test: the folds (nodes) round the shadow&apos;s outline.</source>
        <translation>Faltenwurftest: die Falten (Knoten) entlang des Schattenumrisses.</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>Verbindungen</translation>
    </message>
    <message>
        <source>Live links (cuts and tears remove links).</source>
        <translation>Intakte Verbindungen (Schnitte und Risse entfernen Verbindungen).</translation>
    </message>
    <message>
        <source>Faces</source>
        <translation>Flächen</translation>
    </message>
    <message>
        <source>Live faces: a face is drawn while all six of its links (four sides, two diagonals) are live.</source>
        <translation>Intakte Flächen: Eine Fläche wird gezeichnet, solange alle sechs ihrer Verbindungen (vier Seiten, zwei Diagonalen) intakt sind.</translation>
    </message>
    <message>
        <source>Restore {count} link</source>
        <translation>{count} Verbindung wiederherstellen</translation>
    </message>
    <message>
        <source>Restore {count} links</source>
        <translation>{count} Verbindungen wiederherstellen</translation>
    </message>
    <message>
        <source>Cut {count} link</source>
        <translation>{count} Verbindung schneiden</translation>
    </message>
    <message>
        <source>Cut {count} links</source>
        <translation>{count} Verbindungen schneiden</translation>
    </message>
    <message>
        <source>Add pin</source>
        <translation>Fixpunkt hinzufügen</translation>
    </message>
    <message>
        <source>Remove pin</source>
        <translation>Fixpunkt entfernen</translation>
    </message>
    <message>
        <source>Move pin</source>
        <translation>Fixpunkt verschieben</translation>
    </message>
    <message>
        <source>Move ball</source>
        <translation>Kugel verschieben</translation>
    </message>
    <message>
        <source>Set {setting}</source>
        <translation>{setting} einstellen</translation>
    </message>
    <message>
        <source>Rename scene “{name}”</source>
        <translation>Szene „{name}“ umbenennen</translation>
    </message>
    <message>
        <source>Describe scene</source>
        <translation>Szene beschreiben</translation>
    </message>
    <message>
        <source>Add ruler</source>
        <translation>Lineal hinzufügen</translation>
    </message>
    <message>
        <source>Remove ruler</source>
        <translation>Lineal entfernen</translation>
    </message>
    <message>
        <source>Remove rulers</source>
        <translation>Lineale entfernen</translation>
    </message>
    <message>
        <source>a scene holds at most {count} rulers</source>
        <translation>eine Szene enthält höchstens {count} Lineale</translation>
    </message>
    <message>
        <source>Add probe {number}</source>
        <translation>Sonde {number} hinzufügen</translation>
    </message>
    <message>
        <source>Remove probe {number}</source>
        <translation>Sonde {number} entfernen</translation>
    </message>
    <message>
        <source>particle {particle} has no probe {number}</source>
        <translation>Partikel {particle} hat keine Sonde {number}</translation>
    </message>
    <message>
        <source>a scene holds at most {count} bodies</source>
        <translation>eine Szene enthält höchstens {count} Körper</translation>
    </message>
    <message>
        <source>Add {what}</source>
        <translation>{what} hinzufügen</translation>
    </message>
    <message>
        <source>Remove {what}</source>
        <translation>{what} entfernen</translation>
    </message>
    <message>
        <source>Duplicate {what}</source>
        <translation>{what} duplizieren</translation>
    </message>
    <message numerus="yes">
        <source>{body}: %n cut link(s) dropped, its resolution changed</source>
        <translation>
            <numerusform>{body}: %n geschnittene Verbindung verworfen, seine Auflösung hat sich geändert</numerusform>
            <numerusform>{body}: %n geschnittene Verbindungen verworfen, seine Auflösung hat sich geändert</numerusform>
        </translation>
    </message>
    <message>
        <source>{scene}: the scene has no sheet</source>
        <translation>{scene}: Die Szene hat kein Tuch</translation>
    </message>
    <message>
        <source>Rename {what} to {name}</source>
        <translation>{what} in {name} umbenennen</translation>
    </message>
    <message>
        <source>Rename {what}</source>
        <translation>{what} umbenennen</translation>
    </message>
    <message>
        <source>Set resolution of {what}</source>
        <translation>{what}: Auflösung einstellen</translation>
    </message>
    <message>
        <source>Resize {what}</source>
        <translation>{what}: Größe ändern</translation>
    </message>
    <message>
        <source>Move {what}</source>
        <translation>{what} verschieben</translation>
    </message>
    <message>
        <source>Turn {what}</source>
        <translation>{what} drehen</translation>
    </message>
    <message>
        <source>Set {what} to {material}</source>
        <translation>{what}: Material auf {material} setzen</translation>
    </message>
    <message>
        <source>Set stiffness of {what}</source>
        <translation>{what}: Steifigkeit einstellen</translation>
    </message>
    <message>
        <source>Lay {what} flat</source>
        <translation>{what} flach hinlegen</translation>
    </message>
    <message>
        <source>Hang {what}</source>
        <translation>{what} aufhängen</translation>
    </message>
    <message>
        <source>Change {what}</source>
        <translation>{what} ändern</translation>
    </message>
    <message>
        <source>world settings</source>
        <translation>Welteinstellungen</translation>
    </message>
    <message>
        <source>sheet</source>
        <translation>Tuch</translation>
    </message>
    <message>
        <source>block</source>
        <translation>Block</translation>
    </message>
    <message>
        <source>disc</source>
        <translation>Scheibe</translation>
    </message>
    <message>
        <source>sphere</source>
        <translation>Kugel</translation>
    </message>
    <message>
        <source>box</source>
        <translation>Quader</translation>
    </message>
    <message>
        <source>a scene holds at most {count} obstacles besides the ball</source>
        <translation>eine Szene enthält außer der Kugel höchstens {count} Hindernisse</translation>
    </message>
    <message>
        <source>{body}: only a sheet has edges to pin</source>
        <translation>{body}: Nur ein Tuch hat Kanten zum Fixieren</translation>
    </message>
    <message>
        <source>every {every}: expected a count within {low}…{high}</source>
        <translation>alle {every}: Anzahl innerhalb von {low}…{high} erwartet</translation>
    </message>
    <message numerus="yes">
        <source>Pin top edge (%n pin(s))</source>
        <translation>
            <numerusform>Oberkante fixieren (%n Fixpunkt)</numerusform>
            <numerusform>Oberkante fixieren (%n Fixpunkte)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pin top corners (%n pin(s))</source>
        <translation>
            <numerusform>Obere Ecken fixieren (%n Fixpunkt)</numerusform>
            <numerusform>Obere Ecken fixieren (%n Fixpunkte)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pin left edge (%n pin(s))</source>
        <translation>
            <numerusform>Linke Kante fixieren (%n Fixpunkt)</numerusform>
            <numerusform>Linke Kante fixieren (%n Fixpunkte)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Pin every {ordinal} of top edge (%n pin(s))</source>
        <translation>
            <numerusform>Jedes {ordinal} Partikel der Oberkante fixieren (%n Fixpunkt)</numerusform>
            <numerusform>Jedes {ordinal} Partikel der Oberkante fixieren (%n Fixpunkte)</numerusform>
        </translation>
    </message>
    <message>
        <source>{body}: only a disc has a middle to pin</source>
        <translation>{body}: Nur eine Scheibe hat eine Mitte zum Fixieren</translation>
    </message>
    <message numerus="yes">
        <source>Pin middle of disc (%n pin(s))</source>
        <translation>
            <numerusform>Scheibenmitte fixieren (%n Fixpunkt)</numerusform>
            <numerusform>Scheibenmitte fixieren (%n Fixpunkte)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Unpin all (%n pin(s))</source>
        <translation>
            <numerusform>Alle lösen (%n Fixpunkt)</numerusform>
            <numerusform>Alle lösen (%n Fixpunkte)</numerusform>
        </translation>
    </message>
    <message>
        <source>body {index} is not within 0…{last}</source>
        <translation>Körper {index} liegt nicht innerhalb von 0…{last}</translation>
    </message>
    <message>
        <source>obstacle {index} is not within 0…{last}</source>
        <translation>Hindernis {index} liegt nicht innerhalb von 0…{last}</translation>
    </message>
    <message>
        <source>sheet {cols} × {rows}</source>
        <translation>Tuch {cols} × {rows}</translation>
    </message>
    <message>
        <source>disc {cols} across</source>
        <translation>Scheibe, {cols} Partikel im Durchmesser</translation>
    </message>
    <message>
        <source>block {n} × {n} × {n}</source>
        <translation>Block {n} × {n} × {n}</translation>
    </message>
    <message>
        <source>{n}th</source>
        <translation>{n}.</translation>
    </message>
    <message>
        <source>{n}st</source>
        <translation>{n}.</translation>
    </message>
    <message>
        <source>{n}nd</source>
        <translation>{n}.</translation>
    </message>
    <message>
        <source>{n}rd</source>
        <translation>{n}.</translation>
    </message>
    <message>
        <source>is larger than {limit} bytes</source>
        <translation>ist größer als {limit} Bytes</translation>
    </message>
    <message>
        <source>is not a file name that can be replaced</source>
        <translation>ist kein Dateiname, der ersetzt werden kann</translation>
    </message>
    <message>
        <source>is read-only (mode {mode:04o})</source>
        <translation>ist schreibgeschützt (Modus {mode:04o})</translation>
    </message>
    <message>
        <source>folder {folder} does not exist</source>
        <translation>Ordner {folder} existiert nicht</translation>
    </message>
    <message>
        <source>{folder} is not a folder</source>
        <translation>{folder} ist kein Ordner</translation>
    </message>
    <message>
        <source>folder {folder} is read-only</source>
        <translation>Ordner {folder} ist schreibgeschützt</translation>
    </message>
    <message>
        <source>changed while it was written</source>
        <translation>wurde während des Schreibens verändert</translation>
    </message>
    <message>
        <source>{path}: no such file</source>
        <translation>{path}: Datei nicht vorhanden</translation>
    </message>
    <message>
        <source>{path}: file is larger than {size:g} MiB</source>
        <translation>{path}: Datei ist größer als {size:g} MiB</translation>
    </message>
    <message>
        <source>{path}: cannot read: {reason}</source>
        <translation>{path}: kann nicht gelesen werden: {reason}</translation>
    </message>
    <message>
        <source>{source}: file is larger than {size}</source>
        <translation>{source}: Datei ist größer als {size}</translation>
    </message>
    <message>
        <source>{source}: not UTF-8 text (byte {byte})</source>
        <translation>{source}: kein UTF-8-Text (Byte {byte})</translation>
    </message>
    <message>
        <source>{source}: top level must be an object</source>
        <translation>{source}: Die oberste Ebene muss ein Objekt sein</translation>
    </message>
    <message>
        <source>{source}: nested deeper than {depth} levels</source>
        <translation>{source}: tiefer als {depth} Ebenen verschachtelt</translation>
    </message>
    <message>
        <source>{source}: not valid JSON: {problem} at line {line}</source>
        <translation>{source}: kein gültiges JSON: {problem} in Zeile {line}</translation>
    </message>
    <message>
        <source>{source}: a number has too many digits</source>
        <translation>{source}: Eine Zahl hat zu viele Ziffern</translation>
    </message>
    <message>
        <source>bending_bias: {bias:g} N·m is under {least:g} N·m, a quarter of bending_warp + bending_weft: the least a fabric resists with along its bias</source>
        <translation>bending_bias: {bias:g} N·m liegt unter {least:g} N·m, einem Viertel von bending_warp + bending_weft: das Mindeste, womit ein Stoff schräg zum Fadenlauf widersteht</translation>
    </message>
    <message>
        <source>a {width:g} × {height:g} sheet of {cols} × {rows} particles is finer than {spacing:g} units between particles</source>
        <translation>ein Tuch von {width:g} × {height:g} mit {cols} × {rows} Partikeln ist feiner als {spacing:g} Einheiten zwischen Partikeln</translation>
    </message>
    <message>
        <source>Sheet {cols} × {rows}</source>
        <translation>Tuch {cols} × {rows}</translation>
    </message>
    <message>
        <source>an SI fabric is a sheet&apos;s material, not a block&apos;s</source>
        <translation>ein SI-Stoff ist das Material eines Tuchs, nicht eines Blocks</translation>
    </message>
    <message>
        <source>a block of {size:g} units in {cubes} cubes a side has cubes smaller than {spacing:g} units</source>
        <translation>ein Block von {size:g} Einheiten mit {cubes} Würfeln pro Seite hat Würfel kleiner als {spacing:g} Einheiten</translation>
    </message>
    <message>
        <source>Block {n} × {n} × {n}</source>
        <translation>Block {n} × {n} × {n}</translation>
    </message>
    <message>
        <source>a disc {diameter:g} across of {cols} particles across is finer than {spacing:g} units between particles</source>
        <translation>eine Scheibe von {diameter:g} Durchmesser mit {cols} Partikeln im Durchmesser ist feiner als {spacing:g} Einheiten zwischen Partikeln</translation>
    </message>
    <message>
        <source>Disc {cols} across</source>
        <translation>Scheibe, {cols} Partikel im Durchmesser</translation>
    </message>
    <message>
        <source>Sphere</source>
        <translation>Kugel</translation>
    </message>
    <message>
        <source>Box</source>
        <translation>Quader</translation>
    </message>
    <message>
        <source>bodies have {particles} particles, more than {limit}</source>
        <translation>die Körper haben {particles} Partikel, mehr als {limit}</translation>
    </message>
    <message>
        <source>{source}: schema_version: {version} is newer than this Cloth Lab (reads up to {latest})</source>
        <translation>{source}: schema_version: {version} ist neuer als dieses Cloth Lab (liest bis {latest})</translation>
    </message>
    <message>
        <source>journal goes back in time: step {step} after {before}</source>
        <translation>Journal springt in der Zeit zurück: Schritt {step} nach {before}</translation>
    </message>
    <message>
        <source>the model blew up replaying step {step}</source>
        <translation>das Modell wurde bei der Wiedergabe von Schritt {step} instabil</translation>
    </message>
    <message>
        <source>the journal says the model blew up where its replay did not</source>
        <translation>das Journal meldet eine Instabilität des Modells, wo seine Wiedergabe keine hatte</translation>
    </message>
    <message>
        <source>unknown fabric {name} (fabrics: {fabrics})</source>
        <translation>unbekannter Stoff {name} (Stoffe: {fabrics})</translation>
    </message>
    <message>
        <source>material: the scene has no sheet or disc to give a fabric</source>
        <translation>material: Die Szene hat kein Tuch und keine Scheibe, denen ein Stoff zugewiesen werden kann</translation>
    </message>
    <message>
        <source>overhang: the scene holds no cantilever (a flat strip of SI fabric clamped along whole rows)</source>
        <translation>overhang: Die Szene enthält keinen Cantilever-Test (einen flachen Streifen aus SI-Stoff, entlang ganzer Reihen eingespannt)</translation>
    </message>
    <message>
        <source>Cantilever</source>
        <translation>Kragbalken</translation>
    </message>
    <message>
        <source>Hanging strip</source>
        <translation>Hängender Streifen</translation>
    </message>
    <message>
        <source>Cusick drape</source>
        <translation>Fall nach Cusick</translation>
    </message>
    <message>
        <source>bending length</source>
        <translation>Biegelänge</translation>
    </message>
    <message>
        <source>elongation</source>
        <translation>Längung</translation>
    </message>
    <message>
        <source>published</source>
        <translation>veröffentlicht</translation>
    </message>
    <message>
        <source>no published value</source>
        <translation>kein veröffentlichter Wert</translation>
    </message>
    <message>
        <source>drape coefficient</source>
        <translation>Fallkoeffizient</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV-Dateien (*.csv);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Frage</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>Richtig</translation>
    </message>
    <message>
        <source>Wrong</source>
        <translation>Falsch</translation>
    </message>
    <message>
        <source>Answered</source>
        <translation>Beantwortet</translation>
    </message>
    <message>
        <source>Students</source>
        <translation>Lernende</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <source>Class results</source>
        <translation>Klassenergebnisse</translation>
    </message>
    <message>
        <source>Open the answer files (CSV) your students exported.</source>
        <translation>Öffnen Sie die Antwortdateien (CSV), die Ihre Lernenden exportiert haben.</translation>
    </message>
    <message>
        <source>Add answer files…</source>
        <translation>Antwortdateien hinzufügen…</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Open answer files</source>
        <translation>Antwortdateien öffnen</translation>
    </message>
    <message>
        <source>Left out: {problem}</source>
        <translation>Ausgelassen: {problem}</translation>
    </message>
    <message>
        <source>Set {set}: {count} students&apos; files</source>
        <translation>Fragensatz {set}: Dateien von {count} Lernenden</translation>
    </message>
    <message>
        <source>passes 4</source>
        <translation>Durchgänge 4</translation>
    </message>
    <message>
        <source>passes 16</source>
        <translation>Durchgänge 16</translation>
    </message>
    <message>
        <source>XPBD on</source>
        <translation>XPBD ein</translation>
    </message>
    <message>
        <source>friction on</source>
        <translation>Reibung ein</translation>
    </message>
    <message>
        <source>stiffness 0.5</source>
        <translation>Steifigkeit 0.5</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Schritt</translation>
    </message>
    <message>
        <source>Scene changed: Run again</source>
        <translation>Szene geändert: erneut starten</translation>
    </message>
    <message>
        <source>as is</source>
        <translation>unverändert</translation>
    </message>
    <message>
        <source>e.g. passes=16,xpbd=on</source>
        <translation>z. B. passes=16,xpbd=on</translation>
    </message>
    <message>
        <source>Setting changes, as `clothlab compare --variant` takes them.</source>
        <translation>Geänderte Einstellungen, wie `clothlab compare --variant` sie annimmt.</translation>
    </message>
    <message>
        <source>Preset…</source>
        <translation>Vorlage…</translation>
    </message>
    <message>
        <source>Fabric: {name}</source>
        <translation>Stoff: {name}</translation>
    </message>
    <message>
        <source>Fill in a common variant, or a fabric&apos;s settings.</source>
        <translation>Eine gängige Variante oder die Einstellungen eines Stoffs eintragen.</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Run the variants from step 0 alongside the main run.</source>
        <translation>Die Varianten ab Schritt 0 neben dem Hauptlauf ausführen.</translation>
    </message>
    <message>
        <source>The readout the plot shows.</source>
        <translation>Der Messwert, den das Diagramm zeigt.</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>Diagramm</translation>
    </message>
    <message>
        <source>Show this variant&apos;s cloth in a second view, seen as the main one.</source>
        <translation>Das Tuch dieser Variante in einer zweiten Ansicht zeigen, aus derselben Sicht wie die Hauptansicht.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Show beside the main view</source>
        <translation>Neben der Hauptansicht zeigen</translation>
    </message>
    <message>
        <source>variant {number}</source>
        <translation>Variante {number}</translation>
    </message>
    <message>
        <source>model time (s)</source>
        <translation>Modellzeit (s)</translation>
    </message>
    <message>
        <source>{name}: not running (Run to see it)</source>
        <translation>{name}: läuft nicht (zum Ansehen „Start“ drücken)</translation>
    </message>
    <message>
        <source>Fix the variants marked in red.</source>
        <translation>Korrigieren Sie die rot markierten Varianten.</translation>
    </message>
    <message>
        <source>Type a variant (or choose a preset) first.</source>
        <translation>Geben Sie zuerst eine Variante ein (oder wählen Sie eine Vorlage).</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stopp</translation>
    </message>
    <message>
        <source>New scene</source>
        <translation>Neue Szene</translation>
    </message>
    <message>
        <source>Scene edited</source>
        <translation>Szene bearbeitet</translation>
    </message>
    <message>
        <source>main run</source>
        <translation>Hauptlauf</translation>
    </message>
    <message>
        <source>Areal density</source>
        <translation>Flächengewicht</translation>
    </message>
    <message>
        <source>Mass per square metre of the fabric (weigh a swatch).</source>
        <translation>Masse pro Quadratmeter des Stoffs (wiegen Sie eine Stoffprobe).</translation>
    </message>
    <message>
        <source>Stretch warp</source>
        <translation>Dehnung Kette</translation>
    </message>
    <message>
        <source>Force per unit width per unit strain down the sheet (along its columns).</source>
        <translation>Kraft pro Breiteneinheit und Dehnungseinheit entlang des Tuchs nach unten (entlang seiner Spalten).</translation>
    </message>
    <message>
        <source>Stretch weft</source>
        <translation>Dehnung Schuss</translation>
    </message>
    <message>
        <source>Force per unit width per unit strain across the sheet (along its rows).</source>
        <translation>Kraft pro Breiteneinheit und Dehnungseinheit quer über das Tuch (entlang seiner Zeilen).</translation>
    </message>
    <message>
        <source>Shear</source>
        <translation>Scherung</translation>
    </message>
    <message>
        <source>In-plane shear stiffness, per radian.</source>
        <translation>Schersteifigkeit in der Ebene, pro Radiant.</translation>
    </message>
    <message>
        <source>Bending warp</source>
        <translation>Biegung Kette</translation>
    </message>
    <message>
        <source>Bending rigidity per unit width, curving the warp yarns (1 µN·m = 1e-6 N·m).</source>
        <translation>Biegesteifigkeit pro Breiteneinheit beim Krümmen der Kettfäden (1 µN·m = 1e-6 N·m).</translation>
    </message>
    <message>
        <source>Bending weft</source>
        <translation>Biegung Schuss</translation>
    </message>
    <message>
        <source>Bending rigidity per unit width, curving the weft yarns.</source>
        <translation>Biegesteifigkeit pro Breiteneinheit beim Krümmen der Schussfäden.</translation>
    </message>
    <message>
        <source>Bending bias</source>
        <translation>Biegung schräg</translation>
    </message>
    <message>
        <source>Bending rigidity per unit width along the bias (45°), as a textile lab measures it there; at least a quarter of warp + weft. Until typed, the mean of warp and weft.</source>
        <translation>Biegesteifigkeit je Breiteneinheit schräg zum Fadenlauf (45°), wie ein Textillabor sie dort misst; mindestens ein Viertel von Kette + Schuss. Bis sie eingegeben wird, der Mittelwert von Kette und Schuss.</translation>
    </message>
    <message>
        <source>{typed}: under a quarter of warp + weft ({least:.3g} µN·m), the least a fabric resists with along its bias</source>
        <translation>{typed}: unter einem Viertel von Kette + Schuss ({least:.3g} µN·m), dem Mindesten, womit ein Stoff schräg zum Fadenlauf widersteht</translation>
    </message>
    <message>
        <source>{typed}: the bending bias, {bias:.3g} µN·m, would be under a quarter of warp + weft ({least:.3g} µN·m); raise the bias first</source>
        <translation>{typed}: die Biegung schräg, {bias:.3g} µN·m, läge unter einem Viertel von Kette + Schuss ({least:.3g} µN·m); erhöhen Sie zuerst die Biegung schräg</translation>
    </message>
    <message>
        <source>{tip} Range {low:g}…{high:g} {unit}.</source>
        <translation>{tip} Bereich {low:g}…{high:g} {unit}.</translation>
    </message>
    <message>
        <source>Peirce&apos;s bending length c = (B/(ρ·g))^⅓ along the warp: a strip pushed 2c over an edge droops to about 41.5°.</source>
        <translation>Biegelänge nach Peirce c = (B/(ρ·g))^⅓ entlang der Kette: Ein Streifen, der 2c über eine Kante geschoben wird, hängt um etwa 41,5° herab.</translation>
    </message>
    <message numerus="yes">
        <source>… %n earlier edit(s)</source>
        <translation>
            <numerusform>… %n frühere Bearbeitung</numerusform>
            <numerusform>… %n frühere Bearbeitungen</numerusform>
        </translation>
    </message>
    <message>
        <source>The scene as it was last opened or saved</source>
        <translation>Die Szene, wie sie zuletzt geöffnet oder gespeichert wurde</translation>
    </message>
    <message>
        <source>World settings</source>
        <translation>Welteinstellungen</translation>
    </message>
    <message>
        <source>Your own…</source>
        <translation>Eigener Stoff…</translation>
    </message>
    <message numerus="yes">
        <source>%n substep(s) a step</source>
        <translation>
            <numerusform>%n Teilschritt pro Schritt</numerusform>
            <numerusform>%n Teilschritten pro Schritt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pass(es)</source>
        <translation>
            <numerusform>%n Durchgang</numerusform>
            <numerusform>%n Durchgängen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Fabric solve: %n iteration(s); {left} of a particle&apos;s weight unbalanced.</source>
        <translation>
            <numerusform>Stofflösung: %n Iteration; {left} des Gewichts eines Teilchens unausgeglichen.</numerusform>
            <numerusform>Stofflösung: %n Iterationen; {left} des Gewichts eines Teilchens unausgeglichen.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Fabric solve: %n iteration(s); the links within {left} of their length.</source>
        <translation>
            <numerusform>Stofflösung: %n Iteration; die Verbindungen bis auf {left} ihrer Länge genau.</numerusform>
            <numerusform>Stofflösung: %n Iterationen; die Verbindungen bis auf {left} ihrer Länge genau.</numerusform>
        </translation>
    </message>
    <message>
        <source>The SI fabric runs with {parts}: what its stiffness needs.</source>
        <translation>Der SI-Stoff läuft mit {parts}: So viel braucht seine Steifigkeit.</translation>
    </message>
    <message>
        <source>Selected body</source>
        <translation>Ausgewählter Körper</translation>
    </message>
    <message>
        <source>No body selected: choose one in the Scene panel or the 3D view.</source>
        <translation>Kein Körper ausgewählt: Wählen Sie einen in der Leiste „Szene“ oder in der 3D-Ansicht.</translation>
    </message>
    <message>
        <source>The body&apos;s fabric: a model-units material (its links&apos; stiffness and compliance), or a fabric in SI units (sheets and discs).</source>
        <translation>Der Stoff des Körpers: ein Material in Modelleinheiten (Steifigkeit und Nachgiebigkeit seiner Verbindungen) oder ein Stoff in SI-Einheiten (Tücher und Scheiben).</translation>
    </message>
    <message>
        <source>Own stiffness</source>
        <translation>Eigene Steifigkeit</translation>
    </message>
    <message>
        <source>Off: the material&apos;s stiffness (or the world&apos;s, for World settings).</source>
        <translation>Aus: die Steifigkeit des Materials (oder die der Welt bei „Welteinstellungen“).</translation>
    </message>
    <message>
        <source>Material</source>
        <translation>Material</translation>
    </message>
    <message>
        <source>The world&apos;s stiffness and compliance (Solver settings).</source>
        <translation>Steifigkeit und Nachgiebigkeit der Welt (Löser-Einstellungen).</translation>
    </message>
    <message>
        <source>Model units: stiffness {stiffness:g}, compliance {compliance:g} (XPBD)</source>
        <translation>Modelleinheiten: Steifigkeit {stiffness:g}, Nachgiebigkeit {compliance:g} (XPBD)</translation>
    </message>
    <message>
        <source>Model units: stiffness of the links</source>
        <translation>Modelleinheiten: Steifigkeit der Verbindungen</translation>
    </message>
    <message>
        <source>Held at a point: the fabric stretches most next to a point pin, and the sag there grows as the sheet is refined. A clamp holds it alike at any resolution.</source>
        <translation>An einem Punkt gehalten: der Stoff dehnt sich neben einem Fixpunkt am meisten, und der Durchhang dort wächst, wenn das Tuch verfeinert wird. Eine Klemme hält es bei jeder Auflösung gleich.</translation>
    </message>
    <message>
        <source>Clamp top corners</source>
        <translation>Obere Ecken klemmen</translation>
    </message>
    <message>
        <source>Hold the sheet by every particle within a tenth of its width of a top corner, as a lab&apos;s clamp (Edit ▸ Pin selected sheet ▸ Pin top corner clamps)</source>
        <translation>Das Tuch an jedem Teilchen halten, das weniger als ein Zehntel seiner Breite von einer oberen Ecke entfernt liegt, wie die Klemme eines Labors (Bearbeiten ▸ Ausgewähltes Tuch fixieren ▸ Obere Ecken klemmen)</translation>
    </message>
    <message>
        <source>SI units: measured fabrics</source>
        <translation>SI-Einheiten: gemessene Stoffe</translation>
    </message>
    <message>
        <source>A fabric in SI units from published measurements (RESEARCH.md §8).</source>
        <translation>Ein Stoff in SI-Einheiten aus veröffentlichten Messungen (RESEARCH.md §8).</translation>
    </message>
    <message>
        <source>{name} (yours) — {summary}</source>
        <translation>{name} (eigener) — {summary}</translation>
    </message>
    <message>
        <source>Your own fabric (Fit my fabric).</source>
        <translation>Ihr eigener Stoff („Meinen Stoff anpassen“).</translation>
    </message>
    <message>
        <source>Fit my fabric: B from your own cantilever test.</source>
        <translation>Meinen Stoff anpassen: B aus Ihrem eigenen Cantilever-Test.</translation>
    </message>
    <message>
        <source>Selected body: {body}</source>
        <translation>Ausgewählter Körper: {body}</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>No probes: choose the Probe tool ({shortcut}) and click a particle (up to 4).</source>
        <translation>Keine Sonden: Wählen Sie das Sonden-Werkzeug ({shortcut}) und klicken Sie auf ein Partikel (bis zu 4).</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>Sonde</translation>
    </message>
    <message>
        <source>Particle</source>
        <translation>Partikel</translation>
    </message>
    <message>
        <source>Each probe&apos;s particle and its latest height ({y}), speed ({speed}) and the largest tension in the links at it ({tension})</source>
        <translation>Das Partikel jeder Sonde und seine letzte Höhe ({y}), Geschwindigkeit ({speed}) und die größte Zugkraft in den Verbindungen daran ({tension})</translation>
    </message>
    <message>
        <source>Cloth Lab question sets (*.json);;All files (*)</source>
        <translation>Cloth-Lab-Fragensätze (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>PASS</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>FAIL</source>
        <translation>FEHLER</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Scene</source>
        <translation>Szene</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Verlauf</translation>
    </message>
    <message>
        <source>Readouts</source>
        <translation>Messwerte</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>{what}: {text} is not a number</source>
        <translation>{what}: {text} ist keine Zahl</translation>
    </message>
    <message>
        <source>{what}: {text} is not a finite number</source>
        <translation>{what}: {text} ist keine endliche Zahl</translation>
    </message>
    <message>
        <source>Set title: empty</source>
        <translation>Titel des Fragensatzes: leer</translation>
    </message>
    <message>
        <source>Question {number}: {error}</source>
        <translation>Frage {number}: {error}</translation>
    </message>
    <message>
        <source>the set: {reason}</source>
        <translation>der Fragensatz: {reason}</translation>
    </message>
    <message>
        <source>the set</source>
        <translation>der Fragensatz</translation>
    </message>
    <message>
        <source>prediction: the choice marked correct is empty</source>
        <translation>Vorhersage: Die als richtig markierte Möglichkeit ist leer</translation>
    </message>
    <message>
        <source>answer</source>
        <translation>Antwort</translation>
    </message>
    <message>
        <source>tolerance</source>
        <translation>Toleranz</translation>
    </message>
    <message>
        <source>check time (s)</source>
        <translation>Prüfzeitpunkt (s)</translation>
    </message>
    <message>
        <source>check value</source>
        <translation>Prüfwert</translation>
    </message>
    <message>
        <source>check tolerance</source>
        <translation>Prüftoleranz</translation>
    </message>
    <message>
        <source>now try: {setting}: {error}</source>
        <translation>Jetzt ausprobieren: {setting}: {error}</translation>
    </message>
    <message>
        <source>now-try check value</source>
        <translation>Prüfwert für „Jetzt ausprobieren“</translation>
    </message>
    <message>
        <source>checks: tick “Check the answer” (a question needs a check)</source>
        <translation>Prüfungen: „Antwort anhand von Zahlen prüfen“ ankreuzen (eine Frage braucht eine Prüfung)</translation>
    </message>
    <message>
        <source>Question set editor</source>
        <translation>Fragensatz-Editor</translation>
    </message>
    <message>
        <source>Set title:</source>
        <translation>Titel des Fragensatzes:</translation>
    </message>
    <message>
        <source>e.g. Forces in a hanging sheet</source>
        <translation>z. B. Kräfte in einem hängenden Tuch</translation>
    </message>
    <message>
        <source>Add question</source>
        <translation>Frage hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Run every check headless, as clothlab questions --check</source>
        <translation>Alle Prüfungen ohne Fenster ausführen, wie clothlab questions --check</translation>
    </message>
    <message>
        <source>Save as one file…</source>
        <translation>Als eine Datei speichern…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>e.g. Where does the sheet pull hardest?</source>
        <translation>z. B. Wo zieht das Tuch am stärksten?</translation>
    </message>
    <message>
        <source>Title:</source>
        <translation>Titel:</translation>
    </message>
    <message>
        <source>Use the current scene</source>
        <translation>Aktuelle Szene verwenden</translation>
    </message>
    <message>
        <source>The scene in the 3D view now, embedded in the file</source>
        <translation>Die Szene, die jetzt in der 3D-Ansicht ist, in die Datei eingebettet</translation>
    </message>
    <message>
        <source>Scene:</source>
        <translation>Szene:</translation>
    </message>
    <message>
        <source>Question:</source>
        <translation>Frage:</translation>
    </message>
    <message>
        <source>Choices</source>
        <translation>Antwortmöglichkeiten</translation>
    </message>
    <message>
        <source>A number</source>
        <translation>Eine Zahl</translation>
    </message>
    <message>
        <source>Prediction:</source>
        <translation>Vorhersage:</translation>
    </message>
    <message>
        <source>correct</source>
        <translation>richtig</translation>
    </message>
    <message>
        <source>choice {number} (optional)</source>
        <translation>Möglichkeit {number} (optional)</translation>
    </message>
    <message>
        <source>choice {number}</source>
        <translation>Möglichkeit {number}</translation>
    </message>
    <message>
        <source>unit</source>
        <translation>Einheit</translation>
    </message>
    <message>
        <source>± tolerance</source>
        <translation>± Toleranz</translation>
    </message>
    <message>
        <source>Evidence readout:</source>
        <translation>Beleg-Messwert:</translation>
    </message>
    <message>
        <source>What to watch:</source>
        <translation>Worauf achten:</translation>
    </message>
    <message>
        <source>Explanation:</source>
        <translation>Erklärung:</translation>
    </message>
    <message>
        <source>Now try</source>
        <translation>Jetzt ausprobieren</translation>
    </message>
    <message>
        <source>value, e.g. 32 or on</source>
        <translation>Wert, z. B. 32 oder „on“</translation>
    </message>
    <message>
        <source>what to look for after the click</source>
        <translation>worauf nach dem Klick zu achten ist</translation>
    </message>
    <message>
        <source>Setting:</source>
        <translation>Einstellung:</translation>
    </message>
    <message>
        <source>Value:</source>
        <translation>Wert:</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>Hinweis:</translation>
    </message>
    <message>
        <source>Check the answer by numbers</source>
        <translation>Antwort anhand von Zahlen prüfen</translation>
    </message>
    <message>
        <source>seconds of model time</source>
        <translation>Sekunden Modellzeit</translation>
    </message>
    <message>
        <source>After (s):</source>
        <translation>Nach (s):</translation>
    </message>
    <message>
        <source>value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>the evidence readout must be</source>
        <translation>der Beleg-Messwert muss sein</translation>
    </message>
    <message>
        <source>A numeric answer is checked as “== answer ± tolerance”.</source>
        <translation>Eine Zahlenantwort wird als „== Antwort ± Toleranz“ geprüft.</translation>
    </message>
    <message>
        <source>Also check with the now-try setting: readout</source>
        <translation>Auch mit der Einstellung aus „Jetzt ausprobieren“ prüfen: Messwert</translation>
    </message>
    <message>
        <source>(untitled)</source>
        <translation>(ohne Titel)</translation>
    </message>
    <message>
        <source>preset {name}</source>
        <translation>Vorlage {name}</translation>
    </message>
    <message>
        <source>embedded in the file</source>
        <translation>in die Datei eingebettet</translation>
    </message>
    <message>
        <source>Class mode: hide these panels</source>
        <translation>Klassenmodus: diese Leisten ausblenden</translation>
    </message>
    <message>
        <source>Students opening the set see these panels and settings hidden (View ▸ Leave class mode shows them again)</source>
        <translation>Lernende, die den Fragensatz öffnen, sehen diese Leisten und Einstellungen nicht (Ansicht ▸ Klassenmodus verlassen zeigt sie wieder)</translation>
    </message>
    <message>
        <source>and these settings:</source>
        <translation>und diese Einstellungen:</translation>
    </message>
    <message>
        <source>Settings hidden in class mode</source>
        <translation>Im Klassenmodus ausgeblendete Einstellungen</translation>
    </message>
    <message>
        <source>Cannot make the set: {error}</source>
        <translation>Fragensatz kann nicht erstellt werden: {error}</translation>
    </message>
    <message>
        <source>Checking {count} check…</source>
        <translation>{count} Prüfung läuft…</translation>
    </message>
    <message>
        <source>Checking {count} checks…</source>
        <translation>{count} Prüfungen laufen…</translation>
    </message>
    <message>
        <source>Cannot check: {reason}</source>
        <translation>Prüfen nicht möglich: {reason}</translation>
    </message>
    <message>
        <source>{passed} of {total} checks pass</source>
        <translation>{passed} von {total} Prüfungen bestanden</translation>
    </message>
    <message>
        <source>; {failed} fail: change the expected numbers or the question</source>
        <translation>; {failed} nicht bestanden: Ändern Sie die erwarteten Zahlen oder die Frage</translation>
    </message>
    <message>
        <source>Save question set</source>
        <translation>Fragensatz speichern</translation>
    </message>
    <message>
        <source>Cannot save: {error}</source>
        <translation>Speichern nicht möglich: {error}</translation>
    </message>
    <message>
        <source>Cannot save: {path}: {reason}</source>
        <translation>Speichern nicht möglich: {path}: {reason}</translation>
    </message>
    <message numerus="yes">
        <source>Saved {path} (%n question(s), scenes inside)</source>
        <translation>
            <numerusform>{path} gespeichert (%n Frage, Szenen enthalten)</numerusform>
            <numerusform>{path} gespeichert (%n Fragen, Szenen enthalten)</numerusform>
        </translation>
    </message>
    <message>
        <source>progress file {file} not read: {reason}</source>
        <translation>Fortschrittsdatei {file} nicht gelesen: {reason}</translation>
    </message>
    <message>
        <source>unreadable progress file {file} ({reason}); moved to {aside}</source>
        <translation>unlesbare Fortschrittsdatei {file} ({reason}); verschoben nach {aside}</translation>
    </message>
    <message>
        <source>progress not saved to {file}: {reason}</source>
        <translation>Fortschritt nicht in {file} gespeichert: {reason}</translation>
    </message>
    <message>
        <source>Open set…</source>
        <translation>Fragensatz öffnen…</translation>
    </message>
    <message>
        <source>Open a question set file (a teacher&apos;s own questions)</source>
        <translation>Eine Fragensatz-Datei öffnen (eigene Fragen einer Lehrkraft)</translation>
    </message>
    <message>
        <source>Previous question</source>
        <translation>Vorherige Frage</translation>
    </message>
    <message>
        <source>Next question</source>
        <translation>Nächste Frage</translation>
    </message>
    <message>
        <source>Load the scene</source>
        <translation>Szene laden</translation>
    </message>
    <message>
        <source>Open the question&apos;s scene, paused, ready for a prediction</source>
        <translation>Die Szene der Frage angehalten öffnen, bereit für eine Vorhersage</translation>
    </message>
    <message>
        <source>1 · Your prediction</source>
        <translation>1 · Ihre Vorhersage</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>Vorhersage</translation>
    </message>
    <message>
        <source>Lock in my prediction</source>
        <translation>Vorhersage festlegen</translation>
    </message>
    <message>
        <source>2 · Run it and watch</source>
        <translation>2 · Starten und beobachten</translation>
    </message>
    <message>
        <source>Run ▶</source>
        <translation>Start ▶</translation>
    </message>
    <message>
        <source>Run the simulation (Space); every tool keeps working</source>
        <translation>Die Simulation starten (Leertaste); alle Werkzeuge bleiben nutzbar</translation>
    </message>
    <message>
        <source>I have watched it: explain</source>
        <translation>Beobachtet: jetzt erklären</translation>
    </message>
    <message>
        <source>3 · Why</source>
        <translation>3 · Warum</translation>
    </message>
    <message>
        <source>Now try (one click; Undo takes it back):</source>
        <translation>Jetzt ausprobieren (ein Klick; „Rückgängig“ nimmt ihn zurück):</translation>
    </message>
    <message>
        <source>Summary…</source>
        <translation>Übersicht…</translation>
    </message>
    <message>
        <source>Every question with your prediction and the answer</source>
        <translation>Alle Fragen mit Ihrer Vorhersage und der Antwort</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>CSV-Export…</translation>
    </message>
    <message>
        <source>Save the answers as CSV: {columns}</source>
        <translation>Die Antworten als CSV speichern: {columns}</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>Forget the answers to this question set</source>
        <translation>Die Antworten zu diesem Fragensatz verwerfen</translation>
    </message>
    <message>
        <source>Edit questions…</source>
        <translation>Fragen bearbeiten…</translation>
    </message>
    <message>
        <source>Edit this set&apos;s questions (a built-in set as a copy)</source>
        <translation>Die Fragen dieses Fragensatzes bearbeiten (einen mitgelieferten Satz als Kopie)</translation>
    </message>
    <message>
        <source>Class results…</source>
        <translation>Klassenergebnisse…</translation>
    </message>
    <message>
        <source>Count your students&apos; exported answer files per question</source>
        <translation>Die exportierten Antwortdateien Ihrer Lernenden pro Frage auszählen</translation>
    </message>
    <message>
        <source>Cannot open question set</source>
        <translation>Fragensatz kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Open question set</source>
        <translation>Fragensatz öffnen</translation>
    </message>
    <message>
        <source>Scene: {name}</source>
        <translation>Szene: {name}</translation>
    </message>
    <message>
        <source>Reload the scene</source>
        <translation>Szene neu laden</translation>
    </message>
    <message>
        <source>Your prediction: &lt;b&gt;{prediction}&lt;/b&gt;&lt;br&gt;The evidence is highlighted in the Readouts panel.</source>
        <translation>Ihre Vorhersage: &lt;b&gt;{prediction}&lt;/b&gt;&lt;br&gt;Der Beleg ist in der Leiste „Messwerte“ hervorgehoben.</translation>
    </message>
    <message>
        <source>{mark} Your prediction matched: &lt;b&gt;{prediction}&lt;/b&gt;</source>
        <translation>{mark} Ihre Vorhersage trifft zu: &lt;b&gt;{prediction}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>{mark} You predicted {prediction}&lt;br&gt;The model says: &lt;b&gt;{answer}&lt;/b&gt;</source>
        <translation>{mark} Sie haben vorhergesagt: {prediction}&lt;br&gt;Das Modell sagt: &lt;b&gt;{answer}&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;Not saved: {warning}</source>
        <translation>&lt;br&gt;Nicht gespeichert: {warning}</translation>
    </message>
    <message>
        <source>{answered} of {total} answered · {matched} matched</source>
        <translation>{answered} von {total} beantwortet · {matched} zutreffend</translation>
    </message>
    <message>
        <source>Answered {time}: {mark} {prediction}</source>
        <translation>Beantwortet am {time}: {mark} {prediction}</translation>
    </message>
    <message>
        <source>Export answers</source>
        <translation>Antworten exportieren</translation>
    </message>
    <message>
        <source>Cannot export answers</source>
        <translation>Antworten können nicht exportiert werden</translation>
    </message>
    <message>
        <source>Reset progress</source>
        <translation>Fortschritt zurücksetzen</translation>
    </message>
    <message>
        <source>Forget every answer to “{title}”?</source>
        <translation>Alle Antworten zu „{title}“ verwerfen?</translation>
    </message>
    <message>
        <source>on</source>
        <translation>ein</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>Answers — {title}</source>
        <translation>Antworten — {title}</translation>
    </message>
    <message>
        <source>Your prediction</source>
        <translation>Ihre Vorhersage</translation>
    </message>
    <message>
        <source>Matched</source>
        <translation>Zutreffend</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>units³</source>
        <translation>LE³</translation>
    </message>
    <message>
        <source>units/s</source>
        <translation>LE/s</translation>
    </message>
    <message>
        <source>mass·units²/s²</source>
        <translation>Masse·LE²/s²</translation>
    </message>
    <message>
        <source>mass·units²/s² per step</source>
        <translation>Masse·LE²/s² pro Schritt</translation>
    </message>
    <message>
        <source>J per step</source>
        <translation>J pro Schritt</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Freeze the plots to look at them; recording goes on.</source>
        <translation>Die Diagramme anhalten, um sie zu betrachten; die Aufzeichnung läuft weiter.</translation>
    </message>
    <message>
        <source>Forget the recorded readouts.</source>
        <translation>Die aufgezeichneten Messwerte verwerfen.</translation>
    </message>
    <message>
        <source>Save every recorded row: {columns}.</source>
        <translation>Alle aufgezeichneten Zeilen speichern: {columns}.</translation>
    </message>
    <message>
        <source>Plot window</source>
        <translation>Diagramm-Zeitfenster</translation>
    </message>
    <message>
        <source>Model time shown by the plots ({low} … {high} s).</source>
        <translation>Modellzeit, die die Diagramme zeigen ({low} … {high} s).</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>Fenster</translation>
    </message>
    <message>
        <source>{first} and {second}</source>
        <translation>{first} und {second}</translation>
    </message>
    <message>
        <source>{names} plot</source>
        <translation>Diagramm {names}</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Fortsetzen</translation>
    </message>
    <message>
        <source>Latest: {values}.</source>
        <translation>Aktuell: {values}.</translation>
    </message>
    <message>
        <source>t = {t:.2f} s · step {step}</source>
        <translation>t = {t:.2f} s · Schritt {step}</translation>
    </message>
    <message>
        <source>steady</source>
        <translation>gleichbleibend</translation>
    </message>
    <message>
        <source>rising</source>
        <translation>steigend</translation>
    </message>
    <message>
        <source>falling</source>
        <translation>fallend</translation>
    </message>
    <message>
        <source>The force this pin holds the cloth with over the last step: its size, then (x, y, z). In N with SI fabrics; in model units (mass 1 a particle) otherwise.</source>
        <translation>Die Kraft, mit der dieser Fixpunkt das Tuch im letzten Schritt hält: ihr Betrag, dann (x, y, z). In N bei SI-Stoffen, sonst in Modelleinheiten (ein Partikel hat die Masse 1).</translation>
    </message>
    <message>
        <source>x coordinate.</source>
        <translation>x-Koordinate.</translation>
    </message>
    <message>
        <source>y coordinate.</source>
        <translation>y-Koordinate.</translation>
    </message>
    <message>
        <source>z coordinate.</source>
        <translation>z-Koordinate.</translation>
    </message>
    <message>
        <source>mass·units/s²</source>
        <translation>Masse·LE/s²</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Shown in the panels; empty: named by its shape.</source>
        <translation>Wird in den Leisten angezeigt; leer: nach seiner Form benannt.</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>Breite</translation>
    </message>
    <message>
        <source>Width of the sheet.</source>
        <translation>Breite des Tuchs.</translation>
    </message>
    <message>
        <source>Height of the sheet (its length if flat).</source>
        <translation>Höhe des Tuchs (seine Länge, wenn es flach liegt).</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>Spalten</translation>
    </message>
    <message>
        <source>Particles across the sheet.</source>
        <translation>Partikel quer über das Tuch.</translation>
    </message>
    <message>
        <source>Rows</source>
        <translation>Zeilen</translation>
    </message>
    <message>
        <source>Particles down the sheet.</source>
        <translation>Partikel entlang des Tuchs nach unten.</translation>
    </message>
    <message>
        <source>Lock spacing</source>
        <translation>Abstand sperren</translation>
    </message>
    <message>
        <source>On: a new width or height changes the resolution instead.</source>
        <translation>Ein: Eine neue Breite oder Höhe ändert stattdessen die Auflösung.</translation>
    </message>
    <message>
        <source>Lies</source>
        <translation>Lage</translation>
    </message>
    <message>
        <source>Hanging in x–y, or lying flat in x–z.</source>
        <translation>Hängend in x–y oder flach liegend in x–z.</translation>
    </message>
    <message>
        <source>hanging</source>
        <translation>hängend</translation>
    </message>
    <message>
        <source>flat</source>
        <translation>flach</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>Position</translation>
    </message>
    <message>
        <source>Centre of the sheet&apos;s top edge.</source>
        <translation>Mitte der Oberkante des Tuchs.</translation>
    </message>
    <message>
        <source>Yaw</source>
        <translation>Drehwinkel</translation>
    </message>
    <message>
        <source>Turn about the vertical (+y) axis.</source>
        <translation>Drehung um die senkrechte (+y-)Achse.</translation>
    </message>
    <message>
        <source>Cubes per side</source>
        <translation>Würfel pro Seite</translation>
    </message>
    <message>
        <source>Small cubes along each edge.</source>
        <translation>Kleine Würfel entlang jeder Kante.</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>Length of each edge (a box: along each axis).</source>
        <translation>Länge jeder Kante (bei einem Quader: entlang jeder Achse).</translation>
    </message>
    <message>
        <source>Min corner</source>
        <translation>Minimale Ecke</translation>
    </message>
    <message>
        <source>The corner with the smallest x, y and z.</source>
        <translation>Die Ecke mit den kleinsten Werten für x, y und z.</translation>
    </message>
    <message>
        <source>Centre</source>
        <translation>Mittelpunkt</translation>
    </message>
    <message>
        <source>Centre of the obstacle.</source>
        <translation>Mittelpunkt des Hindernisses.</translation>
    </message>
    <message>
        <source>Radius</source>
        <translation>Radius</translation>
    </message>
    <message>
        <source>Radius of the sphere.</source>
        <translation>Radius der Kugel.</translation>
    </message>
    <message>
        <source>Diameter</source>
        <translation>Durchmesser</translation>
    </message>
    <message>
        <source>Distance across the disc.</source>
        <translation>Abstand quer über die Scheibe.</translation>
    </message>
    <message>
        <source>Particles across the disc&apos;s diameter.</source>
        <translation>Partikel über den Durchmesser der Scheibe.</translation>
    </message>
    <message>
        <source>Centre of the disc (it lies flat in x–z).</source>
        <translation>Mittelpunkt der Scheibe (sie liegt flach in x–z).</translation>
    </message>
    <message>
        <source>Turn about the vertical (+y) axis: its grid turns with it.</source>
        <translation>Drehung um die senkrechte (+y-)Achse: Ihr Gitter dreht sich mit.</translation>
    </message>
    <message>
        <source>Range {low} … {high}{unit}, step {step:g}{unit}.</source>
        <translation>Bereich {low} … {high}{unit}, Schrittweite {step:g}{unit}.</translation>
    </message>
    <message>
        <source>On</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Strength</source>
        <translation>Stärke</translation>
    </message>
    <message>
        <source>{particles} particles, {links} links</source>
        <translation>{particles} Partikel, {links} Verbindungen</translation>
    </message>
    <message>
        <source>radius {radius:.3g}</source>
        <translation>Radius {radius:.3g}</translation>
    </message>
    <message>
        <source>{wind}, aerodynamic</source>
        <translation>{wind}, aerodynamisch</translation>
    </message>
    <message>
        <source>{substeps} substeps × </source>
        <translation>{substeps} Teilschritte × </translation>
    </message>
    <message numerus="yes">
        <source>%n pass(es), Δt {dt:.3g} s</source>
        <translation>
            <numerusform>%n Durchgang, Δt {dt:.3g} s</numerusform>
            <numerusform>%n Durchgänge, Δt {dt:.3g} s</numerusform>
        </translation>
    </message>
    <message>
        <source>friction</source>
        <translation>Reibung</translation>
    </message>
    <message>
        <source>the classic model</source>
        <translation>das klassische Modell</translation>
    </message>
    <message>
        <source>Property</source>
        <translation>Eigenschaft</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Bodies</source>
        <translation>Körper</translation>
    </message>
    <message>
        <source>Sheets, discs and soft blocks: select one to edit it.</source>
        <translation>Tücher, Scheiben und weiche Blöcke: Wählen Sie einen aus, um ihn zu bearbeiten.</translation>
    </message>
    <message>
        <source>Obstacles</source>
        <translation>Hindernisse</translation>
    </message>
    <message>
        <source>What the bodies collide with.</source>
        <translation>Womit die Körper kollidieren.</translation>
    </message>
    <message>
        <source>Pins</source>
        <translation>Fixpunkte</translation>
    </message>
    <message>
        <source>Pinned particles and their anchors ({unit}).</source>
        <translation>Fixierte Partikel und ihre Ankerpunkte ({unit}).</translation>
    </message>
    <message>
        <source>Nothing goes below the floor.</source>
        <translation>Nichts gelangt unter den Boden.</translation>
    </message>
    <message>
        <source>Solver</source>
        <translation>Löser</translation>
    </message>
    <message>
        <source>How the model is stepped.</source>
        <translation>Wie das Modell Schritt für Schritt berechnet wird.</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>Stoff</translation>
    </message>
    <message>
        <source>Options beyond the classic model.</source>
        <translation>Optionen über das klassische Modell hinaus.</translation>
    </message>
    <message>
        <source>The classic model&apos;s ball.</source>
        <translation>Die Kugel des klassischen Modells.</translation>
    </message>
    <message>
        <source>Centre {axis}</source>
        <translation>Mittelpunkt {axis}</translation>
    </message>
    <message>
        <source>ball + {count}</source>
        <translation>Kugel + {count}</translation>
    </message>
    <message>
        <source>Particle {particle}</source>
        <translation>Partikel {particle}</translation>
    </message>
    <message>
        <source>Anchor {axis}</source>
        <translation>Anker {axis}</translation>
    </message>
    <message>
        <source>… {count} more</source>
        <translation>… {count} weitere</translation>
    </message>
    <message>
        <source>{count} of {body}</source>
        <translation>{count} von {body}</translation>
    </message>
    <message>
        <source>unnamed</source>
        <translation>unbenannt</translation>
    </message>
    <message>
        <source>How hard this pushes the cloth (its normal force) over the last step: at rest, the weight of the cloth it carries. In N with SI fabrics; in model units (mass 1 a particle) otherwise.</source>
        <translation>Wie stark dies im letzten Schritt gegen das Tuch drückt (seine Normalkraft): in Ruhe das Gewicht des Tuchs, das es trägt. In N bei SI-Stoffen, sonst in Modelleinheiten (ein Partikel hat die Masse 1).</translation>
    </message>
    <message>
        <source>Force</source>
        <translation>Kraft</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Start or stop the stopwatch (model time)</source>
        <translation>Stoppuhr starten oder anhalten (Modellzeit)</translation>
    </message>
    <message>
        <source>Lap</source>
        <translation>Runde</translation>
    </message>
    <message>
        <source>Note the reading as a lap</source>
        <translation>Den Messwert als Runde festhalten</translation>
    </message>
    <message>
        <source>Back to 0 and no laps</source>
        <translation>Zurück auf 0 und keine Runden</translation>
    </message>
    <message>
        <source>Copy laps</source>
        <translation>Runden kopieren</translation>
    </message>
    <message>
        <source>Copy the laps as text lines (Ctrl+C)</source>
        <translation>Die Runden als Textzeilen kopieren (Strg+C)</translation>
    </message>
    <message>
        <source>Laps</source>
        <translation>Runden</translation>
    </message>
    <message>
        <source>Lap {number}   {time} s   (+{split} s)</source>
        <translation>Runde {number}   {time} s   (+{split} s)</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Sweep — {title}</source>
        <translation>Parameterstudie — {title}</translation>
    </message>
    <message numerus="yes">
        <source>%n variant(s), {failed} without readouts</source>
        <translation>
            <numerusform>%n Variante, {failed} ohne Messwerte</numerusform>
            <numerusform>%n Varianten, {failed} ohne Messwerte</numerusform>
        </translation>
    </message>
    <message>
        <source>Readout</source>
        <translation>Messwert</translation>
    </message>
    <message>
        <source>Along</source>
        <translation>Entlang</translation>
    </message>
    <message>
        <source>One curve per</source>
        <translation>Eine Kurve je</translation>
    </message>
    <message>
        <source>Open sweep results</source>
        <translation>Ergebnisse der Parameterstudie öffnen</translation>
    </message>
    <message>
        <source>Cannot open the sweep&apos;s results</source>
        <translation>Die Ergebnisse der Parameterstudie können nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>Gemessen</translation>
    </message>
    <message>
        <source>Band</source>
        <translation>Bereich</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Anmerkung</translation>
    </message>
    <message>
        <source>OUT</source>
        <translation>AUSSERHALB</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message>
        <source>Run the drape test</source>
        <translation>Faltenwurf-Test ausführen</translation>
    </message>
    <message>
        <source>Fabrics</source>
        <translation>Stoffe</translation>
    </message>
    <message>
        <source>Tests</source>
        <translation>Tests</translation>
    </message>
    <message>
        <source>Drape specimens</source>
        <translation>Faltenwurfproben</translation>
    </message>
    <message>
        <source>Drape this many specimens on each mesh, each started raised its own way, and compare their mean, as a lab averages its specimens</source>
        <translation>So viele Proben je Netz drapieren, jede auf ihre eigene Weise angehoben gestartet, und ihren Mittelwert vergleichen, wie ein Labor seine Proben mittelt</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Fit my fabric…</source>
        <translation>Eigenen Stoff anpassen…</translation>
    </message>
    <message>
        <source>Drape from above</source>
        <translation>Faltenwurf von oben</translation>
    </message>
    <message>
        <source>Open in view</source>
        <translation>In der Ansicht öffnen</translation>
    </message>
    <message>
        <source>Open the selected row&apos;s test scene for its fabric</source>
        <translation>Die Testszene der gewählten Zeile mit deren Stoff öffnen</translation>
    </message>
    <message>
        <source>{name} (yours)</source>
        <translation>{name} (eigener)</translation>
    </message>
    <message>
        <source>Choose at least one fabric and one test.</source>
        <translation>Wählen Sie mindestens einen Stoff und einen Test.</translation>
    </message>
    <message>
        <source>Cancelling after the check under way…</source>
        <translation>Abbruch nach der laufenden Prüfung…</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>wartet</translation>
    </message>
    <message>
        <source>Band: {reference}</source>
        <translation>Bereich: {reference}</translation>
    </message>
    <message>
        <source>{done} of {total} checks, {passed} in their bands</source>
        <translation>{done} von {total} Prüfungen, {passed} im Bereich</translation>
    </message>
    <message>
        <source>validation stopped: {error}</source>
        <translation>Validierung abgebrochen: {error}</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>nicht ausgeführt</translation>
    </message>
    <message>
        <source>Cancelled: {done} of {total} checks, {passed} in their bands</source>
        <translation>Abgebrochen: {done} von {total} Prüfungen, {passed} im Bereich</translation>
    </message>
    <message>
        <source>Done: {done} of {total} checks, {passed} in their bands</source>
        <translation>Fertig: {done} von {total} Prüfungen, {passed} im Bereich</translation>
    </message>
    <message>
        <source>{fabric}: no drape test run</source>
        <translation>{fabric}: kein Faltenwurf-Test ausgeführt</translation>
    </message>
    <message>
        <source>{fabric} from above: drape coefficient {coefficient:.1f} %, {folds} folds</source>
        <translation>{fabric} von oben: Fallkoeffizient {coefficient:.1f} %, {folds} Falten</translation>
    </message>
    <message>
        <source>Export validation CSV</source>
        <translation>Validierung als CSV exportieren</translation>
    </message>
    <message>
        <source>Cannot export {name}: {reason}</source>
        <translation>{name} kann nicht exportiert werden: {reason}</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n check(s) to {name}</source>
        <translation>
            <numerusform>%n Prüfung nach {name} exportiert</numerusform>
            <numerusform>%n Prüfungen nach {name} exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>{name}: file is larger than {limit} bytes</source>
        <translation>{name}: Die Datei ist größer als {limit} Bytes</translation>
    </message>
    <message>
        <source>fabrics file {file} not read: {reason}</source>
        <translation>Stoffdatei {file} nicht gelesen: {reason}</translation>
    </message>
    <message>
        <source>fabric name: expected 1…{count} characters</source>
        <translation>Stoffname: erwartet werden 1…{count} Zeichen</translation>
    </message>
    <message>
        <source>unreadable fabrics file {file} ({reason}); moved to {aside}</source>
        <translation>unlesbare Stoffdatei {file} ({reason}); verschoben nach {aside}</translation>
    </message>
    <message>
        <source>3D view of the scene</source>
        <translation>3D-Ansicht der Szene</translation>
    </message>
    <message>
        <source>an untitled scene</source>
        <translation>eine unbenannte Szene</translation>
    </message>
    <message>
        <source>Opened {name}</source>
        <translation>Geöffnet: {name}</translation>
    </message>
    <message>
        <source>no</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>one</source>
        <translation>ein</translation>
    </message>
    <message>
        <source>two</source>
        <translation>zwei</translation>
    </message>
    <message>
        <source>three</source>
        <translation>drei</translation>
    </message>
    <message>
        <source>four</source>
        <translation>vier</translation>
    </message>
    <message>
        <source>five</source>
        <translation>fünf</translation>
    </message>
    <message>
        <source>six</source>
        <translation>sechs</translation>
    </message>
    <message>
        <source>seven</source>
        <translation>sieben</translation>
    </message>
    <message>
        <source>eight</source>
        <translation>acht</translation>
    </message>
    <message>
        <source>nine</source>
        <translation>neun</translation>
    </message>
    <message>
        <source>ten</source>
        <translation>zehn</translation>
    </message>
    <message>
        <source>eleven</source>
        <translation>elf</translation>
    </message>
    <message>
        <source>twelve</source>
        <translation>zwölf</translation>
    </message>
    <message>
        <source>a sheet, {columns} by {rows}</source>
        <translation>ein Tuch, {columns} mal {rows}</translation>
    </message>
    <message>
        <source>a disc, {across} across</source>
        <translation>eine Scheibe, {across} im Durchmesser</translation>
    </message>
    <message>
        <source>a soft block of {n} by {n} by {n} cubes</source>
        <translation>ein weicher Block aus {n} mal {n} mal {n} Würfeln</translation>
    </message>
    <message>
        <source>a body</source>
        <translation>ein Körper</translation>
    </message>
    <message>
        <source>hangs from one pin</source>
        <translation>hängt an einem Fixpunkt</translation>
    </message>
    <message>
        <source>hangs from {amount} pins</source>
        <translation>hängt an {amount} Fixpunkten</translation>
    </message>
    <message>
        <source>is free, with no pins</source>
        <translation>ist frei, ohne Fixpunkte</translation>
    </message>
    <message>
        <source>in one piece</source>
        <translation>in einem Stück</translation>
    </message>
    <message>
        <source>in {amount} pieces</source>
        <translation>in {amount} Stücken</translation>
    </message>
    <message>
        <source>no cloth</source>
        <translation>kein Tuch</translation>
    </message>
    <message>
        <source>the ball is on</source>
        <translation>die Kugel ist an</translation>
    </message>
    <message>
        <source>the ball is off</source>
        <translation>die Kugel ist aus</translation>
    </message>
    <message>
        <source>one other obstacle</source>
        <translation>ein weiteres Hindernis</translation>
    </message>
    <message>
        <source>{amount} other obstacles</source>
        <translation>{amount} weitere Hindernisse</translation>
    </message>
    <message>
        <source>swinging</source>
        <translation>schwingt</translation>
    </message>
    <message>
        <source>settling</source>
        <translation>kommt zur Ruhe</translation>
    </message>
    <message>
        <source>at rest</source>
        <translation>in Ruhe</translation>
    </message>
    <message>
        <source>running: {motion}</source>
        <translation>läuft: {motion}</translation>
    </message>
    <message>
        <source>paused: {motion}</source>
        <translation>pausiert: {motion}</translation>
    </message>
    <message>
        <source>sag {sag:.2f} units</source>
        <translation>Durchhang {sag:.2f} Einheiten</translation>
    </message>
    <message>
        <source>sag {sag:.2f} m</source>
        <translation>Durchhang {sag:.2f} m</translation>
    </message>
    <message>
        <source>stretch {stretch:.0f} %</source>
        <translation>Dehnung {stretch:.0f} %</translation>
    </message>
    <message>
        <source>particle {particle} is held</source>
        <translation>Partikel {particle} wird gehalten</translation>
    </message>
    <message>
        <source>The 3D view is empty: no scene is loaded yet.</source>
        <translation>Die 3D-Ansicht ist leer: Es ist noch keine Szene geladen.</translation>
    </message>
    <message>
        <source>row {row} of {rows}, column {column} of {columns}</source>
        <translation>Zeile {row} von {rows}, Spalte {column} von {columns}</translation>
    </message>
    <message>
        <source>pinned</source>
        <translation>fixiert</translation>
    </message>
    <message>
        <source>Cursor on particle {particle}</source>
        <translation>Cursor auf Partikel {particle}</translation>
    </message>
    <message>
        <source>hand {force:.3g} {unit}</source>
        <translation>Hand {force:.3g} {unit}</translation>
    </message>
    <message>
        <source>Tension (each link&apos;s pull)</source>
        <translation>Zugkraft (Zug jeder Verbindung)</translation>
    </message>
    <message>
        <source>Tension per unit length</source>
        <translation>Zugkraft pro Längeneinheit</translation>
    </message>
    <message>
        <source>not measured yet</source>
        <translation>noch nicht gemessen</translation>
    </message>
    <message>
        <source>Stretch (L − rest) / rest</source>
        <translation>Dehnung (L − Ruhelänge) / Ruhelänge</translation>
    </message>
    <message>
        <source>shader program {name} does not link: {message}</source>
        <translation>Shader-Programm {name} lässt sich nicht linken: {message}</translation>
    </message>
    <message>
        <source>cannot read shader {file}: {reason}</source>
        <translation>Shader {file} kann nicht gelesen werden: {reason}</translation>
    </message>
    <message>
        <source>shader {file} does not compile: {message}</source>
        <translation>Shader {file} lässt sich nicht kompilieren: {message}</translation>
    </message>
    <message>
        <source>3D view keys: arrows orbit, Shift+arrows pan, + and − zoom; Enter puts a cursor on the cloth.</source>
        <translation>Tasten der 3D-Ansicht: Pfeiltasten drehen, Umschalt+Pfeiltasten verschieben, + und − zoomen; Eingabe setzt einen Cursor auf das Tuch.</translation>
    </message>
    <message>
        <source>Cursor: arrows step, Tab goes to the next body, pin or obstacle; Enter grabs or lifts, P pins or unpins, O probes, K marks a cut&apos;s end, M a ruler&apos;s; Esc leaves the cursor.</source>
        <translation>Cursor: Pfeiltasten gehen schrittweise, Tab springt zum nächsten Körper, Fixpunkt oder Hindernis; Eingabe greift oder hebt an, P fixiert oder löst, O setzt eine Sonde, K markiert ein Schnittende, M ein Linealende; Esc beendet den Cursor.</translation>
    </message>
    <message>
        <source>Holding: arrows move it (Shift: fine steps), Enter puts it down, Esc puts it back.</source>
        <translation>Gehalten: Pfeiltasten bewegen es (Umschalt: feine Schritte), Eingabe setzt es ab, Esc setzt es zurück.</translation>
    </message>
    <message>
        <source>One cut mark: step to the other end and press K, then Enter to cut.</source>
        <translation>Eine Schnittmarke: Gehen Sie zum anderen Ende und drücken Sie K, dann Eingabe zum Schneiden.</translation>
    </message>
    <message>
        <source>Two cut marks: Enter cuts every link between them, Esc drops the marks.</source>
        <translation>Zwei Schnittmarken: Eingabe schneidet jede Verbindung dazwischen, Esc verwirft die Marken.</translation>
    </message>
    <message>
        <source>One ruler end: step to the other end and press M to measure, Esc drops it.</source>
        <translation>Ein Linealende: Gehen Sie zum anderen Ende und drücken Sie M zum Messen, Esc verwirft es.</translation>
    </message>
    <message>
        <source>Cursor on the ball</source>
        <translation>Cursor auf der Kugel</translation>
    </message>
    <message>
        <source>Cursor on obstacle {number}</source>
        <translation>Cursor auf Hindernis {number}</translation>
    </message>
    <message>
        <source>Probe on or off particle {particle}</source>
        <translation>Sonde an Partikel {particle} angebracht oder entfernt</translation>
    </message>
    <message>
        <source>No cloth in view for the cursor</source>
        <translation>Kein Tuch in der Ansicht für den Cursor</translation>
    </message>
    <message>
        <source>The edge: no particle that way</source>
        <translation>Der Rand: In dieser Richtung gibt es kein Partikel</translation>
    </message>
    <message>
        <source>Cut marks dropped</source>
        <translation>Schnittmarken verworfen</translation>
    </message>
    <message>
        <source>Ruler end dropped</source>
        <translation>Linealende verworfen</translation>
    </message>
    <message>
        <source>Cursor left</source>
        <translation>Cursor entfernt</translation>
    </message>
    <message>
        <source>Lifted; arrows move it</source>
        <translation>Angehoben; Pfeiltasten bewegen es</translation>
    </message>
    <message>
        <source>Lifted the pin of particle {particle}; arrows move it</source>
        <translation>Fixpunkt von Partikel {particle} angehoben; Pfeiltasten bewegen ihn</translation>
    </message>
    <message>
        <source>Grabbed particle {particle}; arrows move it, Enter lets go</source>
        <translation>Partikel {particle} gegriffen; Pfeiltasten bewegen es, Eingabe lässt los</translation>
    </message>
    <message>
        <source>Let go of particle {particle}</source>
        <translation>Partikel {particle} losgelassen</translation>
    </message>
    <message>
        <source>Pin put down</source>
        <translation>Fixpunkt abgesetzt</translation>
    </message>
    <message>
        <source>Pin put back</source>
        <translation>Fixpunkt zurückgesetzt</translation>
    </message>
    <message>
        <source>Obstacle put down</source>
        <translation>Hindernis abgesetzt</translation>
    </message>
    <message>
        <source>Obstacle put back</source>
        <translation>Hindernis zurückgesetzt</translation>
    </message>
    <message>
        <source>Unpinned particle {particle}</source>
        <translation>Partikel {particle} gelöst</translation>
    </message>
    <message>
        <source>Pinned particle {particle}</source>
        <translation>Partikel {particle} fixiert</translation>
    </message>
    <message>
        <source>Cut mark at particle {particle}, the first end</source>
        <translation>Schnittmarke an Partikel {particle}, das erste Ende</translation>
    </message>
    <message>
        <source>Cut mark at particle {particle}, the second end: Enter cuts</source>
        <translation>Schnittmarke an Partikel {particle}, das zweite Ende: Eingabe schneidet</translation>
    </message>
    <message>
        <source>Ruler end at particle {particle}: step to the other end and press M</source>
        <translation>Linealende an Partikel {particle}: Gehen Sie zum anderen Ende und drücken Sie M</translation>
    </message>
    <message>
        <source>Ruler from particle {start} to particle {end}: {length:.4f} long</source>
        <translation>Lineal von Partikel {start} bis Partikel {end}: {length:.4f} lang</translation>
    </message>
    <message>
        <source>The cut crossed no links</source>
        <translation>Der Schnitt hat keine Verbindung gekreuzt</translation>
    </message>
    <message>
        <source>&amp;Select</source>
        <translation>&amp;Auswählen</translation>
    </message>
    <message>
        <source>Select: click a body or an obstacle to select it, the background to select nothing; drag to orbit. Ctrl+click selects in every tool.</source>
        <translation>Auswählen: Körper oder Hindernis anklicken; Hintergrund: nichts auswählen; Ziehen dreht. Strg+Klick wählt überall aus.</translation>
    </message>
    <message>
        <source>&amp;Grab</source>
        <translation>&amp;Greifen</translation>
    </message>
    <message>
        <source>Grab: drag the cloth or the block; right-drag orbits, middle-drag pans. Ctrl+click selects.</source>
        <translation>Greifen: Tuch oder Block ziehen; rechte Maustaste dreht, mittlere verschiebt die Ansicht. Strg+Klick wählt aus.</translation>
    </message>
    <message>
        <source>&amp;Pin</source>
        <translation>&amp;Fixieren</translation>
    </message>
    <message>
        <source>Pin: click a particle to pin or unpin it; drag a pin to move its anchor. Ctrl+click selects.</source>
        <translation>Fixieren: Klick auf ein Partikel fixiert oder löst es; einen Fixpunkt ziehen verschiebt seinen Anker. Strg+Klick wählt aus.</translation>
    </message>
    <message>
        <source>Pr&amp;obe</source>
        <translation>S&amp;onde</translation>
    </message>
    <message>
        <source>Probe: click a particle to attach a probe (up to 4, read in the Probes panel), a probed one to take it off. Ctrl+click selects.</source>
        <translation>Sonde: Partikel anklicken setzt eine Sonde (bis zu 4, Werte in „Sonden“); Sonde anklicken entfernt sie. Strg+Klick wählt aus.</translation>
    </message>
    <message>
        <source>&amp;Cut</source>
        <translation>&amp;Schneiden</translation>
    </message>
    <message>
        <source>Cut: drag a stroke across the cloth; every link it crosses is cut. Ctrl+click selects.</source>
        <translation>Schneiden: einen Strich über das Tuch ziehen; jede gekreuzte Verbindung wird geschnitten. Strg+Klick wählt aus.</translation>
    </message>
    <message>
        <source>&amp;Ball tool</source>
        <translation>&amp;Kugel-Werkzeug</translation>
    </message>
    <message>
        <source>Move: drag the ball or any obstacle to move it; right-drag orbits. Ctrl+click selects.</source>
        <translation>Verschieben: Kugel oder Hindernis ziehen verschiebt es; rechte Maustaste dreht die Ansicht. Strg+Klick wählt aus.</translation>
    </message>
    <message>
        <source>&amp;Ruler</source>
        <translation>&amp;Lineal</translation>
    </message>
    <message>
        <source>Ruler: drag between two points to measure; click a ruler&apos;s label to remove it. Ctrl+click selects.</source>
        <translation>Lineal: zwischen zwei Punkten ziehen misst; Klick auf die Beschriftung eines Lineals entfernt es. Strg+Klick wählt aus.</translation>
    </message>
    <message>
        <source>no valid OpenGL context</source>
        <translation>kein gültiger OpenGL-Kontext</translation>
    </message>
    <message>
        <source>OpenGL 3.3 is needed, the driver offers {version}</source>
        <translation>OpenGL 3.3 wird benötigt, der Treiber bietet {version}</translation>
    </message>
    <message>
        <source>OpenGL error: {error}</source>
        <translation>OpenGL-Fehler: {error}</translation>
    </message>
    <message>
        <source>¼×</source>
        <translation>¼×</translation>
    </message>
    <message>
        <source>½×</source>
        <translation>½×</translation>
    </message>
    <message>
        <source>1×</source>
        <translation>1×</translation>
    </message>
    <message>
        <source>2×</source>
        <translation>2×</translation>
    </message>
    <message>
        <source>4×</source>
        <translation>4×</translation>
    </message>
    <message>
        <source>As fast as possible</source>
        <translation>So schnell wie möglich</translation>
    </message>
    <message>
        <source>Save S&amp;tate…</source>
        <translation>Zustand spei&amp;chern…</translation>
    </message>
    <message>
        <source>Save S&amp;tate at t = {t:.2f} s…</source>
        <translation>Zustand bei t = {t:.2f} s spei&amp;chern…</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Bearbeiten</translation>
    </message>
    <message>
        <source>&amp;Tool</source>
        <translation>Werk&amp;zeug</translation>
    </message>
    <message>
        <source>Pi&amp;n selected sheet</source>
        <translation>Ausgewähltes Tuch &amp;fixieren</translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation>Hin&amp;zufügen</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;Simulation</source>
        <translation>&amp;Simulation</translation>
    </message>
    <message>
        <source>S&amp;peed</source>
        <translation>&amp;Geschwindigkeit</translation>
    </message>
    <message>
        <source>&amp;Lab</source>
        <translation>&amp;Labor</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>&amp;Neu</translation>
    </message>
    <message>
        <source>Start a blank scene: one default sheet, no pins</source>
        <translation>Eine leere Szene beginnen: ein Standardtuch, keine Fixpunkte</translation>
    </message>
    <message>
        <source>New &amp;from preset</source>
        <translation>Neu aus &amp;Vorlage</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>&amp;Öffnen…</translation>
    </message>
    <message>
        <source>Open a scene file</source>
        <translation>Eine Szenendatei öffnen</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>Open &amp;question set…</source>
        <translation>&amp;Fragensatz öffnen…</translation>
    </message>
    <message>
        <source>Open a question set file: a teacher&apos;s own questions</source>
        <translation>Eine Fragensatz-Datei öffnen: eigene Fragen einer Lehrkraft</translation>
    </message>
    <message>
        <source>New q&amp;uestion set…</source>
        <translation>Neuer F&amp;ragensatz…</translation>
    </message>
    <message>
        <source>Make your own questions: the question editor, the current scene inside</source>
        <translation>Eigene Fragen erstellen: der Frageneditor, mit der aktuellen Szene darin</translation>
    </message>
    <message>
        <source>Open recor&amp;ding…</source>
        <translation>&amp;Aufnahme öffnen…</translation>
    </message>
    <message>
        <source>Open a recording and replay it: play, step or seek to any step</source>
        <translation>Eine Aufnahme öffnen und wiedergeben: abspielen, schrittweise vorgehen oder zu einem beliebigen Schritt springen</translation>
    </message>
    <message>
        <source>Open s&amp;weep results…</source>
        <translation>Ergebnisse einer &amp;Parameterstudie öffnen…</translation>
    </message>
    <message>
        <source>Plot a sweep&apos;s results (clothlab sweep --csv): a readout against a setting</source>
        <translation>Die Ergebnisse einer Parameterstudie (clothlab sweep --csv) als Diagramm zeigen: ein Messwert über einer Einstellung</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save the scene</source>
        <translation>Die Szene speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter…</translation>
    </message>
    <message>
        <source>Save the scene to a new file</source>
        <translation>Die Szene in eine neue Datei speichern</translation>
    </message>
    <message>
        <source>Save the set-up with the links torn so far, as a scene file of its own (positions are not stored: it opens at rest)</source>
        <translation>Den Aufbau mit den bisher gerissenen Verbindungen als eigene Szenendatei speichern (Positionen werden nicht gespeichert: sie öffnet sich in Ruhe)</translation>
    </message>
    <message>
        <source>Re&amp;vert</source>
        <translation>&amp;Wiederherstellen</translation>
    </message>
    <message>
        <source>Load the scene&apos;s file again, dropping the changes since it was saved</source>
        <translation>Die Datei der Szene erneut laden und die Änderungen seit dem Speichern verwerfen</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>Schl&amp;ießen</translation>
    </message>
    <message>
        <source>Close the scene and start from a blank one</source>
        <translation>Die Szene schließen und mit einer leeren beginnen</translation>
    </message>
    <message>
        <source>Scene p&amp;roperties…</source>
        <translation>Szenen&amp;eigenschaften…</translation>
    </message>
    <message>
        <source>Name the scene (the window&apos;s title shows it) and describe it</source>
        <translation>Die Szene benennen (der Fenstertitel zeigt den Namen) und beschreiben</translation>
    </message>
    <message>
        <source>&amp;Export readouts CSV…</source>
        <translation>Messwerte als CSV e&amp;xportieren…</translation>
    </message>
    <message>
        <source>Save the recorded readouts as CSV</source>
        <translation>Die aufgezeichneten Messwerte als CSV speichern</translation>
    </message>
    <message>
        <source>Export &amp;positions…</source>
        <translation>P&amp;ositionen exportieren…</translation>
    </message>
    <message>
        <source>Save the particle positions of the frame shown as an (N, 3) .npy array</source>
        <translation>Die Partikelpositionen des angezeigten Bildes als (N, 3)-Array im .npy-Format speichern</translation>
    </message>
    <message>
        <source>Export &amp;mesh…</source>
        <translation>&amp;Gitternetz exportieren…</translation>
    </message>
    <message>
        <source>Save the cloth of the frame shown as an OBJ or PLY mesh</source>
        <translation>Das Tuch des angezeigten Bildes als OBJ- oder PLY-Gitternetz speichern</translation>
    </message>
    <message>
        <source>Export mesh se&amp;quence…</source>
        <translation>Gitternetz-Se&amp;quenz exportieren…</translation>
    </message>
    <message>
        <source>Save a mesh per frame (30 a second) into a folder: a replay to its end, or 5 s from the frame shown</source>
        <translation>Ein Gitternetz pro Bild (30 pro Sekunde) in einen Ordner speichern: eine Wiedergabe bis zu ihrem Ende oder 5 s ab dem angezeigten Bild</translation>
    </message>
    <message>
        <source>Export vi&amp;deo…</source>
        <translation>Vi&amp;deo exportieren…</translation>
    </message>
    <message>
        <source>Record the model from the frame shown as an MP4 or animated GIF</source>
        <translation>Das Modell ab dem angezeigten Bild als MP4 oder animiertes GIF aufzeichnen</translation>
    </message>
    <message>
        <source>Save screens&amp;hot…</source>
        <translation>Bildschirmfo&amp;to speichern…</translation>
    </message>
    <message>
        <source>Save an image of the window</source>
        <translation>Ein Bild des Fensters speichern</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>Quit Cloth Lab</source>
        <translation>Cloth Lab beenden</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Rückgängig</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Wiederholen</translation>
    </message>
    <message>
        <source>Seam &amp;cut</source>
        <translation>&amp;Nahtschnitt</translation>
    </message>
    <message>
        <source>Cut the sheet top to bottom down its middle</source>
        <translation>Das Tuch in der Mitte von oben nach unten durchschneiden</translation>
    </message>
    <message>
        <source>&amp;Duplicate body</source>
        <translation>Körper &amp;duplizieren</translation>
    </message>
    <message>
        <source>Copy the selected body beside it, with its pins</source>
        <translation>Den ausgewählten Körper mit seinen Fixpunkten daneben kopieren</translation>
    </message>
    <message>
        <source>Remo&amp;ve selected</source>
        <translation>Auswahl &amp;entfernen</translation>
    </message>
    <message>
        <source>Remove the selected body or obstacle</source>
        <translation>Den ausgewählten Körper oder das ausgewählte Hindernis entfernen</translation>
    </message>
    <message>
        <source>Remove ru&amp;lers</source>
        <translation>&amp;Lineale entfernen</translation>
    </message>
    <message>
        <source>Take every ruler off the scene (one undo step)</source>
        <translation>Alle Lineale aus der Szene nehmen (ein Rückgängig-Schritt)</translation>
    </message>
    <message>
        <source>Pin &amp;top edge</source>
        <translation>&amp;Obere Kante fixieren</translation>
    </message>
    <message>
        <source>Pin the top edge of the selected sheet at its rest place (as set up)</source>
        <translation>Die obere Kante des ausgewählten Tuchs an ihrer Ruheposition fixieren (wie aufgebaut)</translation>
    </message>
    <message>
        <source>Pin top &amp;corners</source>
        <translation>Obere &amp;Ecken fixieren</translation>
    </message>
    <message>
        <source>Pin the top corners of the selected sheet at its rest place (as set up)</source>
        <translation>Die oberen Ecken des ausgewählten Tuchs an ihrer Ruheposition fixieren (wie aufgebaut)</translation>
    </message>
    <message>
        <source>Pin &amp;left edge</source>
        <translation>&amp;Linke Kante fixieren</translation>
    </message>
    <message>
        <source>Pin the left edge of the selected sheet at its rest place (as set up)</source>
        <translation>Die linke Kante des ausgewählten Tuchs an ihrer Ruheposition fixieren (wie aufgebaut)</translation>
    </message>
    <message>
        <source>Pin &amp;every n-th of top edge…</source>
        <translation>&amp;Jeden n-ten Partikel der oberen Kante fixieren…</translation>
    </message>
    <message>
        <source>Pin every n-th particle of the selected sheet&apos;s top edge (asks n)</source>
        <translation>Jeden n-ten Partikel der oberen Kante des ausgewählten Tuchs fixieren (fragt nach n)</translation>
    </message>
    <message>
        <source>&amp;Unpin all</source>
        <translation>&amp;Alle lösen</translation>
    </message>
    <message>
        <source>Remove every pin of the selected body</source>
        <translation>Alle Fixpunkte des ausgewählten Körpers entfernen</translation>
    </message>
    <message>
        <source>Pr&amp;eferences…</source>
        <translation>Ein&amp;stellungen…</translation>
    </message>
    <message>
        <source>Autosave interval, frame-rate cap, plot window and theme</source>
        <translation>Intervall der automatischen Sicherung, Obergrenze der Bildrate, Diagrammzeitraum und Design</translation>
    </message>
    <message>
        <source>&amp;Sheet</source>
        <translation>&amp;Tuch</translation>
    </message>
    <message>
        <source>Add a sheet of cloth beside the other bodies, hanging from its top corners</source>
        <translation>Ein Tuch neben den anderen Körpern hinzufügen, an seinen oberen Ecken hängend</translation>
    </message>
    <message>
        <source>&amp;Disc</source>
        <translation>&amp;Scheibe</translation>
    </message>
    <message>
        <source>Add a circular sheet lying flat beside the other bodies, held at its middle</source>
        <translation>Ein rundes Tuch flach liegend neben den anderen Körpern hinzufügen, in seiner Mitte gehalten</translation>
    </message>
    <message>
        <source>Soft &amp;block</source>
        <translation>&amp;Weicher Block</translation>
    </message>
    <message>
        <source>Add a soft block beside the other bodies</source>
        <translation>Einen weichen Block neben den anderen Körpern hinzufügen</translation>
    </message>
    <message>
        <source>S&amp;phere</source>
        <translation>&amp;Kugel</translation>
    </message>
    <message>
        <source>Add a sphere obstacle where the camera looks</source>
        <translation>Ein Kugelhindernis dort hinzufügen, wohin die Kamera blickt</translation>
    </message>
    <message>
        <source>B&amp;ox</source>
        <translation>&amp;Quader</translation>
    </message>
    <message>
        <source>Add a box obstacle where the camera looks</source>
        <translation>Ein Quaderhindernis dort hinzufügen, wohin die Kamera blickt</translation>
    </message>
    <message>
        <source>&amp;Panels</source>
        <translation>&amp;Leisten</translation>
    </message>
    <message>
        <source>Reset &amp;layout</source>
        <translation>&amp;Anordnung zurücksetzen</translation>
    </message>
    <message>
        <source>Put the panels back where they started</source>
        <translation>Die Leisten an ihre ursprünglichen Plätze zurücksetzen</translation>
    </message>
    <message>
        <source>&amp;Wireframe</source>
        <translation>&amp;Drahtgitter</translation>
    </message>
    <message>
        <source>Draw the links</source>
        <translation>Die Verbindungen zeichnen</translation>
    </message>
    <message>
        <source>&amp;Stretch colours</source>
        <translation>Dehnungs&amp;farben</translation>
    </message>
    <message>
        <source>Colour the links by strain</source>
        <translation>Die Verbindungen nach Dehnung einfärben</translation>
    </message>
    <message>
        <source>&amp;Tension map</source>
        <translation>&amp;Zugkraftkarte</translation>
    </message>
    <message>
        <source>Colour the cloth by its links&apos; tension, from the solver&apos;s forces (legend in N with SI fabrics, else in mass·units/s²)</source>
        <translation>Das Tuch nach der Zugkraft seiner Verbindungen einfärben, aus den Kräften des Lösers (Legende in N bei SI-Stoffen, sonst in Masse·LE/s²)</translation>
    </message>
    <message>
        <source>Pin &amp;force arrows</source>
        <translation>Fixpunktkraft-&amp;Pfeile</translation>
    </message>
    <message>
        <source>Draw the force each pin holds the cloth with, as an arrow labelled in N with SI fabrics, else in mass·units/s²</source>
        <translation>Die Kraft, mit der jeder Fixpunkt das Tuch hält, als Pfeil zeichnen, beschriftet in N bei SI-Stoffen, sonst in Masse·LE/s²</translation>
    </message>
    <message>
        <source>Lea&amp;ve class mode</source>
        <translation>Klassen&amp;modus verlassen</translation>
    </message>
    <message>
        <source>Show the panels a question set&apos;s class mode hid</source>
        <translation>Die Leisten wieder zeigen, die der Klassenmodus eines Fragensatzes ausgeblendet hat</translation>
    </message>
    <message>
        <source>Reset &amp;camera</source>
        <translation>&amp;Kamera zurücksetzen</translation>
    </message>
    <message>
        <source>Look at the scene from its own camera</source>
        <translation>Die Szene aus ihrer eigenen Kamera betrachten</translation>
    </message>
    <message>
        <source>&amp;Frame scene</source>
        <translation>&amp;Szene einpassen</translation>
    </message>
    <message>
        <source>Turn the camera on everything in the scene, from where it looks now</source>
        <translation>Die Kamera von ihrem jetzigen Standpunkt aus auf alles in der Szene richten</translation>
    </message>
    <message>
        <source>F&amp;ull screen</source>
        <translation>&amp;Vollbild</translation>
    </message>
    <message>
        <source>Fill the screen with the window; F11 again to leave</source>
        <translation>Den Bildschirm mit dem Fenster füllen; erneut F11 zum Verlassen</translation>
    </message>
    <message>
        <source>&amp;Play</source>
        <translation>&amp;Start</translation>
    </message>
    <message>
        <source>Run or pause the simulation</source>
        <translation>Die Simulation starten oder anhalten</translation>
    </message>
    <message>
        <source>S&amp;tep</source>
        <translation>Sch&amp;ritt</translation>
    </message>
    <message>
        <source>Advance one step of 1/120 s while paused</source>
        <translation>Bei angehaltener Simulation einen Schritt von 1/120 s weitergehen</translation>
    </message>
    <message>
        <source>&amp;Reset</source>
        <translation>&amp;Zurücksetzen</translation>
    </message>
    <message>
        <source>Back to t = 0 with the scene as loaded</source>
        <translation>Zurück zu t = 0 mit der Szene wie geladen</translation>
    </message>
    <message>
        <source>Re&amp;cord</source>
        <translation>&amp;Aufnehmen</translation>
    </message>
    <message>
        <source>Record from t = 0: every grab, cut and edit at its step, to replay exactly</source>
        <translation>Ab t = 0 aufnehmen: jedes Greifen, jeden Schnitt und jede Bearbeitung in ihrem Schritt, für eine exakte Wiedergabe</translation>
    </message>
    <message>
        <source>Sa&amp;ve recording…</source>
        <translation>Aufnahme spei&amp;chern…</translation>
    </message>
    <message>
        <source>Save the last recording to a file</source>
        <translation>Die letzte Aufnahme in eine Datei speichern</translation>
    </message>
    <message>
        <source>&amp;Ball</source>
        <translation>&amp;Kugel</translation>
    </message>
    <message>
        <source>Switch the ball on or off</source>
        <translation>Die Kugel ein- oder ausschalten</translation>
    </message>
    <message>
        <source>&amp;Validate fabrics…</source>
        <translation>Stoffe &amp;validieren…</translation>
    </message>
    <message>
        <source>The textile lab&apos;s tests on the fabrics, measured against published values</source>
        <translation>Die Tests des Textillabors an den Stoffen, gemessen an veröffentlichten Werten</translation>
    </message>
    <message>
        <source>&amp;Fit my fabric…</source>
        <translation>&amp;Eigenen Stoff anpassen…</translation>
    </message>
    <message>
        <source>B from your own fabric&apos;s density and cantilever overhang or drape coefficient, saved by name</source>
        <translation>B aus Dichte und Cantilever-Überhang oder Fallkoeffizient Ihres eigenen Stoffs, unter einem Namen gespeichert</translation>
    </message>
    <message>
        <source>&amp;Class results…</source>
        <translation>&amp;Klassenergebnisse…</translation>
    </message>
    <message>
        <source>Count students&apos; exported answer files: per question, how many predicted right</source>
        <translation>Exportierte Antwortdateien der Lernenden auszählen: pro Frage, wie viele richtig vorhergesagt haben</translation>
    </message>
    <message>
        <source>&amp;Questions</source>
        <translation>&amp;Fragen</translation>
    </message>
    <message>
        <source>The lab&apos;s questions: predict, run and watch, then read why</source>
        <translation>Die Fragen des Labors: vorhersagen, laufen lassen und beobachten, dann die Erklärung lesen</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>List the keyboard shortcuts</source>
        <translation>Die Tastenkürzel auflisten</translation>
    </message>
    <message>
        <source>&amp;User guide (README)</source>
        <translation>&amp;Benutzerhandbuch (README)</translation>
    </message>
    <message>
        <source>Show README.md: using the app, the command line, the scenes</source>
        <translation>README.md anzeigen: die Bedienung der App, die Befehlszeile, die Szenen</translation>
    </message>
    <message>
        <source>&amp;Model notes (RESEARCH)</source>
        <translation>&amp;Modellnotizen (RESEARCH)</translation>
    </message>
    <message>
        <source>Show RESEARCH.md: the model&apos;s equations, measured figures and limits</source>
        <translation>RESEARCH.md anzeigen: die Gleichungen des Modells, gemessene Werte und Grenzen</translation>
    </message>
    <message>
        <source>&amp;About Cloth Lab</source>
        <translation>&amp;Über Cloth Lab</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pause</translation>
    </message>
    <message>
        <source>Pause (Space)</source>
        <translation>Pause (Leertaste)</translation>
    </message>
    <message>
        <source>Play (Space)</source>
        <translation>Start (Leertaste)</translation>
    </message>
    <message>
        <source>Main toolbar</source>
        <translation>Hauptwerkzeugleiste</translation>
    </message>
    <message>
        <source>Model seconds per wall-clock second</source>
        <translation>Modellsekunden pro Sekunde Echtzeit</translation>
    </message>
    <message>
        <source>Start a new scene from the {name} preset</source>
        <translation>Eine neue Szene aus der Vorlage {name} beginnen</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>Keine zuletzt geöffneten Dateien</translation>
    </message>
    <message>
        <source>Clear menu</source>
        <translation>Menü leeren</translation>
    </message>
    <message>
        <source>Cloth Lab scenes (*.json);;All files (*)</source>
        <translation>Cloth-Lab-Szenen (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG-Bilder (*.png)</translation>
    </message>
    <message>
        <source>NumPy arrays (*.npy)</source>
        <translation>NumPy-Arrays (*.npy)</translation>
    </message>
    <message>
        <source>User guide</source>
        <translation>Benutzerhandbuch</translation>
    </message>
    <message>
        <source>Model notes</source>
        <translation>Anmerkungen zum Modell</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>Unbenannt</translation>
    </message>
    <message>
        <source>Orbit the camera (in the 3D view)</source>
        <translation>Kamera drehen (in der 3D-Ansicht)</translation>
    </message>
    <message>
        <source>Arrows</source>
        <translation>Pfeiltasten</translation>
    </message>
    <message>
        <source>Pan the camera (in the 3D view)</source>
        <translation>Kamera verschieben (in der 3D-Ansicht)</translation>
    </message>
    <message>
        <source>Shift+arrows</source>
        <translation>Umschalt+Pfeiltasten</translation>
    </message>
    <message>
        <source>Zoom (in the 3D view)</source>
        <translation>Zoomen (in der 3D-Ansicht)</translation>
    </message>
    <message>
        <source>+ and −</source>
        <translation>+ und −</translation>
    </message>
    <message>
        <source>Keyboard cursor on the cloth (in the 3D view)</source>
        <translation>Tastaturcursor auf dem Tuch (in der 3D-Ansicht)</translation>
    </message>
    <message>
        <source>Enter; Esc leaves it</source>
        <translation>Eingabe; Esc verlässt ihn</translation>
    </message>
    <message>
        <source>Cursor: step / next body, pin or obstacle</source>
        <translation>Cursor: weiterbewegen / nächster Körper, Fixpunkt oder nächstes Hindernis</translation>
    </message>
    <message>
        <source>Arrows / Tab</source>
        <translation>Pfeiltasten / Tab</translation>
    </message>
    <message>
        <source>Cursor: grab or lift, then put down</source>
        <translation>Cursor: greifen oder anheben, dann absetzen</translation>
    </message>
    <message>
        <source>Enter (arrows move; Shift: fine)</source>
        <translation>Eingabe (Pfeiltasten bewegen; Umschalt: fein)</translation>
    </message>
    <message>
        <source>Cursor: pin or unpin</source>
        <translation>Cursor: fixieren oder lösen</translation>
    </message>
    <message>
        <source>Cursor: a probe on or off</source>
        <translation>Cursor: Sonde ein oder aus</translation>
    </message>
    <message>
        <source>Cursor: mark a cut&apos;s end</source>
        <translation>Cursor: Ende eines Schnitts markieren</translation>
    </message>
    <message>
        <source>two marks, then Enter</source>
        <translation>zwei Markierungen, dann Eingabe</translation>
    </message>
    <message>
        <source>Cursor: a ruler&apos;s end, then the ruler</source>
        <translation>Cursor: Ende eines Lineals, dann das Lineal</translation>
    </message>
    <message>
        <source>twice</source>
        <translation>zweimal</translation>
    </message>
    <message>
        <source>Next / previous control</source>
        <translation>Nächstes / vorheriges Bedienelement</translation>
    </message>
    <message>
        <source>Tab / Shift+Tab</source>
        <translation>Tab / Umschalt+Tab</translation>
    </message>
    <message>
        <source>Next / previous area: toolbar, 3D view, each panel</source>
        <translation>Nächster / vorheriger Bereich: Werkzeugleiste, 3D-Ansicht, jede Leiste</translation>
    </message>
    <message>
        <source>F6 / Shift+F6</source>
        <translation>F6 / Umschalt+F6</translation>
    </message>
    <message>
        <source>Press the focused button or check box</source>
        <translation>Schaltfläche oder Ankreuzfeld mit Fokus betätigen</translation>
    </message>
    <message>
        <source>Enter (Space runs or pauses)</source>
        <translation>Eingabe (Leertaste startet oder pausiert)</translation>
    </message>
    <message>
        <source>Edit a value in the Scene panel</source>
        <translation>Einen Wert in der Leiste „Szene“ bearbeiten</translation>
    </message>
    <message>
        <source>F2, or double-click</source>
        <translation>F2 oder Doppelklick</translation>
    </message>
    <message>
        <source>Orbit the camera</source>
        <translation>Kamera drehen</translation>
    </message>
    <message>
        <source>Left or right drag in the 3D view</source>
        <translation>Ziehen mit linker oder rechter Maustaste in der 3D-Ansicht</translation>
    </message>
    <message>
        <source>Pan the camera</source>
        <translation>Kamera verschieben</translation>
    </message>
    <message>
        <source>Middle drag, or Shift + drag</source>
        <translation>Ziehen mit mittlerer Maustaste oder Umschalt + Ziehen</translation>
    </message>
    <message>
        <source>Zoom</source>
        <translation>Zoomen</translation>
    </message>
    <message>
        <source>Mouse wheel</source>
        <translation>Mausrad</translation>
    </message>
    <message>
        <source>&lt;h3&gt;{application} {version}&lt;/h3&gt;&lt;p&gt;A desktop physics lab for cloth: position-based dynamics (Verlet predict, Gauss–Seidel link passes), live readouts, editable scenes.&lt;/p&gt;&lt;p&gt;Model time advances in steps of 1/120 s on a solver thread; the window draws the newest finished frame.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;{application} {version}&lt;/h3&gt;&lt;p&gt;Ein Physiklabor für Tücher auf dem Desktop: positionsbasierte Dynamik (Verlet-Vorhersage, Gauß-Seidel-Durchgänge über die Verbindungen), Messwerte live, bearbeitbare Szenen.&lt;/p&gt;&lt;p&gt;Die Modellzeit schreitet in einem Löser-Thread in Schritten von 1/120 s voran; das Fenster zeichnet jeweils das neueste fertig berechnete Bild.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>Ungespeicherte Änderungen</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>&amp;Verwerfen</translation>
    </message>
    <message>
        <source>Save the changes to “{name}”?</source>
        <translation>Änderungen an „{name}“ speichern?</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Gespeicherte Fassung wiederherstellen</translation>
    </message>
    <message>
        <source>Drop the changes and load {file} again?</source>
        <translation>Änderungen verwerfen und {file} erneut laden?</translation>
    </message>
    <message>
        <source>Cannot open scene</source>
        <translation>Szene kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Save scene as</source>
        <translation>Szene speichern unter</translation>
    </message>
    <message>
        <source>Cannot save scene</source>
        <translation>Szene kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>{path} gespeichert</translation>
    </message>
    <message>
        <source>Cannot save the state</source>
        <translation>Der Zustand kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>No frame has been computed yet.</source>
        <translation>Es wurde noch kein Bild berechnet.</translation>
    </message>
    <message>
        <source>Save state at {what} — positions are not stored</source>
        <translation>Zustand bei {what} speichern — Positionen werden nicht gespeichert</translation>
    </message>
    <message>
        <source>Saved the state at {what} to {path} — no positions: it opens at rest, torn</source>
        <translation>Zustand bei {what} in {path} gespeichert — ohne Positionen: Er öffnet sich in Ruhelage, mit den Rissen</translation>
    </message>
    <message>
        <source>Export readouts</source>
        <translation>Messwerte exportieren</translation>
    </message>
    <message>
        <source>Cannot export readouts</source>
        <translation>Messwerte können nicht exportiert werden</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n row(s) to {path}</source>
        <translation>
            <numerusform>%n Zeile nach {path} exportiert</numerusform>
            <numerusform>%n Zeilen nach {path} exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot export positions</source>
        <translation>Positionen können nicht exportiert werden</translation>
    </message>
    <message>
        <source>Export positions</source>
        <translation>Positionen exportieren</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n position(s) at t = {t:.2f} s to {path}</source>
        <translation>
            <numerusform>%n Position bei t = {t:.2f} s nach {path} exportiert</numerusform>
            <numerusform>%n Positionen bei t = {t:.2f} s nach {path} exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>Save screenshot</source>
        <translation>Bildschirmfoto speichern</translation>
    </message>
    <message>
        <source>Cannot save screenshot</source>
        <translation>Bildschirmfoto kann nicht gespeichert werden</translation>
    </message>
    <message>
        <source>{count} link torn</source>
        <translation>{count} Verbindung gerissen</translation>
    </message>
    <message>
        <source>{count} links torn</source>
        <translation>{count} Verbindungen gerissen</translation>
    </message>
    <message>
        <source>(version unknown)</source>
        <translation>(Version unbekannt)</translation>
    </message>
    <message>
        <source>About {application}</source>
        <translation>Über {application}</translation>
    </message>
    <message>
        <source>{file} is not installed with the package: it is at the top of Cloth Lab&apos;s source repository (README.md is the user guide, RESEARCH.md the model notes).</source>
        <translation>{file} wird nicht mit dem Paket installiert: Die Datei liegt im obersten Ordner des Quellcode-Repositorys von Cloth Lab (README.md ist das Benutzerhandbuch, RESEARCH.md die Anmerkungen zum Modell).</translation>
    </message>
    <message>
        <source>&lt;h3&gt;The 3D view is not available&lt;/h3&gt;&lt;p&gt;OpenGL 3.3 could not be used: {reason}&lt;/p&gt;&lt;p&gt;The simulation, panels and plots still work. Updating the graphics driver, or running with Mesa&apos;s software renderer (LIBGL_ALWAYS_SOFTWARE=1), may help.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Die 3D-Ansicht ist nicht verfügbar&lt;/h3&gt;&lt;p&gt;OpenGL 3.3 konnte nicht verwendet werden: {reason}&lt;/p&gt;&lt;p&gt;Simulation, Leisten und Diagramme funktionieren weiterhin. Eine Aktualisierung des Grafiktreibers oder ein Start mit dem Software-Renderer von Mesa (LIBGL_ALWAYS_SOFTWARE=1) kann helfen.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>Tasten</translation>
    </message>
    <message>
        <source>Scene properties</source>
        <translation>Szeneneigenschaften</translation>
    </message>
    <message>
        <source>The scene&apos;s name: the window&apos;s title and a saved file keep it</source>
        <translation>Der Name der Szene: Der Fenstertitel zeigt ihn, eine gespeicherte Datei bewahrt ihn</translation>
    </message>
    <message>
        <source>What the experiment shows (optional)</source>
        <translation>Was das Experiment zeigt (optional)</translation>
    </message>
    <message>
        <source>Description</source>
        <translation>Beschreibung</translation>
    </message>
    <message>
        <source>Description: {length} characters, at most {limit}</source>
        <translation>Beschreibung: {length} Zeichen, höchstens {limit}</translation>
    </message>
    <message>
        <source>Pin every n-th of top edge</source>
        <translation>Jedes n-te Partikel der Oberkante fixieren</translation>
    </message>
    <message>
        <source>Pin every n-th particle, n:</source>
        <translation>Jedes n-te Partikel fixieren, n:</translation>
    </message>
    <message>
        <source>OBJ meshes (*.obj)</source>
        <translation>OBJ-Netze (*.obj)</translation>
    </message>
    <message>
        <source>PLY meshes, binary (*.ply)</source>
        <translation>PLY-Netze, binär (*.ply)</translation>
    </message>
    <message>
        <source>MP4 video, H.264 (*.mp4)</source>
        <translation>MP4-Video, H.264 (*.mp4)</translation>
    </message>
    <message>
        <source>Animated GIF (*.gif)</source>
        <translation>Animiertes GIF (*.gif)</translation>
    </message>
    <message>
        <source>Video export needs: pip install clothlab[video]</source>
        <translation>Der Videoexport benötigt: pip install clothlab[video]</translation>
    </message>
    <message>
        <source>cannot write</source>
        <translation>Schreiben nicht möglich</translation>
    </message>
    <message>
        <source>the image could not be encoded as PNG</source>
        <translation>das Bild konnte nicht als PNG kodiert werden</translation>
    </message>
    <message>
        <source>the 3D view cannot draw (OpenGL 3.3 is not available)</source>
        <translation>die 3D-Ansicht kann nicht zeichnen (OpenGL 3.3 ist nicht verfügbar)</translation>
    </message>
    <message>
        <source>no frame has been computed yet</source>
        <translation>es wurde noch kein Bild berechnet</translation>
    </message>
    <message>
        <source>the model became unstable: {reason}</source>
        <translation>das Modell wurde instabil: {reason}</translation>
    </message>
    <message>
        <source>Export video</source>
        <translation>Video exportieren</translation>
    </message>
    <message>
        <source>{fps} frames per second</source>
        <translation>{fps} Bilder pro Sekunde</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>Länge</translation>
    </message>
    <message>
        <source> s of model time</source>
        <translation> s Modellzeit</translation>
    </message>
    <message>
        <source>Frame rate</source>
        <translation>Bildrate</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>Format</translation>
    </message>
    <message>
        <source>Cannot export mesh</source>
        <translation>Netz kann nicht exportiert werden</translation>
    </message>
    <message>
        <source>Export mesh</source>
        <translation>Netz exportieren</translation>
    </message>
    <message>
        <source>Exported the mesh at t = {t:.2f} s to {path}</source>
        <translation>Netz bei t = {t:.2f} s nach {path} exportiert</translation>
    </message>
    <message>
        <source>Export mesh sequence into</source>
        <translation>Netzfolge exportieren in</translation>
    </message>
    <message>
        <source>Cannot export meshes</source>
        <translation>Netze können nicht exportiert werden</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n mesh(es) to {folder}</source>
        <translation>
            <numerusform>%n Netz nach {folder} exportiert</numerusform>
            <numerusform>%n Netze nach {folder} exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot export video</source>
        <translation>Video kann nicht exportiert werden</translation>
    </message>
    <message numerus="yes">
        <source>Video export cancelled after %n frame(s); nothing was saved</source>
        <translation>
            <numerusform>Videoexport nach %n Bild abgebrochen; es wurde nichts gespeichert</numerusform>
            <numerusform>Videoexport nach %n Bildern abgebrochen; es wurde nichts gespeichert</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %n frame(s) ({span}) to {path}</source>
        <translation>
            <numerusform>%n Bild ({span}) nach {path} exportiert</numerusform>
            <numerusform>%n Bilder ({span}) nach {path} exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>Rendering the video…</source>
        <translation>Video wird gerendert…</translation>
    </message>
    <message>
        <source>Overhang</source>
        <translation>Überhang</translation>
    </message>
    <message>
        <source>Droop angle</source>
        <translation>Neigungswinkel</translation>
    </message>
    <message>
        <source>cannot start the fit&apos;s processes: {reason}</source>
        <translation>die Prozesse der Anpassung können nicht gestartet werden: {reason}</translation>
    </message>
    <message>
        <source>the fit failed: {reason}</source>
        <translation>die Anpassung ist fehlgeschlagen: {reason}</translation>
    </message>
    <message>
        <source>Fit my fabric</source>
        <translation>Eigenen Stoff anpassen</translation>
    </message>
    <message>
        <source>Weigh a swatch for its areal density, then push a 2.5 cm strip of it over a table&apos;s edge until its tip droops to 41.5° below the edge (a line from the edge to the tip), and measure the overhang. The fit finds the bending rigidity B at which the model&apos;s strip droops the same.</source>
        <translation>Wiegen Sie eine Stoffprobe, um ihr Flächengewicht zu bestimmen. Schieben Sie dann einen 2,5 cm breiten Streifen davon über eine Tischkante, bis seine Spitze 41,5° unter die Kante hängt (gemessen an einer Linie von der Kante zur Spitze), und messen Sie den Überhang. Die Anpassung findet die Biegesteifigkeit B, bei der der Streifen des Modells ebenso weit hängt.</translation>
    </message>
    <message>
        <source>41.5° is the standard&apos;s (ASTM D1388); any angle you measured at</source>
        <translation>41,5° gibt die Norm vor (ASTM D1388); oder jeder Winkel, bei dem Sie gemessen haben</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>Anpassen</translation>
    </message>
    <message>
        <source>bending rigidity B</source>
        <translation>Biegesteifigkeit B</translation>
    </message>
    <message>
        <source>chord angle</source>
        <translation>Sehnenwinkel</translation>
    </message>
    <message>
        <source>a name for your fabric</source>
        <translation>ein Name für Ihren Stoff</translation>
    </message>
    <message>
        <source>A cantilever&apos;s overhang</source>
        <translation>Überhang eines Biegestreifens</translation>
    </message>
    <message>
        <source>A drape coefficient</source>
        <translation>Fallkoeffizient</translation>
    </message>
    <message>
        <source>Measured on a 30 cm specimen over an 18 cm support</source>
        <translation>Gemessen an einer 30-cm-Probe auf einer 18-cm-Auflage</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>Speichern unter…</translation>
    </message>
    <message>
        <source>What you measured:</source>
        <translation>Was Sie gemessen haben:</translation>
    </message>
    <message>
        <source>Overhang at the angle</source>
        <translation>Überhang beim Winkel</translation>
    </message>
    <message>
        <source>Weigh a swatch for its areal density, and measure its drape coefficient on a Cusick drape meter (a 30 cm specimen on an 18 cm support). The fit finds the bending rigidity B at which the model&apos;s specimen drapes the same; as a real specimen&apos;s, its coefficient moves by a few points with the folds it makes.</source>
        <translation>Wiegen Sie eine Stoffprobe, um ihr Flächengewicht zu bestimmen, und messen Sie ihren Fallkoeffizienten mit einem Cusick-Fallmessgerät (eine 30-cm-Probe auf einer 18-cm-Auflage). Die Anpassung findet die Biegesteifigkeit B, bei der die Probe des Modells ebenso fällt; wie bei einer echten Probe schwankt ihr Koeffizient mit den Falten, die sie wirft, um einige Punkte.</translation>
    </message>
    <message>
        <source>Fitting: five specimens of bending lengths 0.8 to 4 cm, in two processes…</source>
        <translation>Anpassung: fünf Proben mit Biegelängen von 0,8 bis 4 cm, in zwei Prozessen…</translation>
    </message>
    <message>
        <source>Fitting: five strips of B round Peirce&apos;s guess, in two processes…</source>
        <translation>Anpassung: fünf Streifen mit B um Peirces Schätzwert, in zwei Prozessen…</translation>
    </message>
    <message>
        <source>{doing} {done} of {count} done</source>
        <translation>{doing} {done} von {count} fertig</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>Wird angehalten…</translation>
    </message>
    <message>
        <source>B = {rigidity} N·m (bending length {length:.2f} cm)</source>
        <translation>B = {rigidity} N·m (Biegelänge {length:.2f} cm)</translation>
    </message>
    <message>
        <source>swept</source>
        <translation>abgetastet</translation>
    </message>
    <message>
        <source>Cannot save {name}: {reason}</source>
        <translation>{name} kann nicht gespeichert werden: {reason}</translation>
    </message>
    <message>
        <source>Fit first</source>
        <translation>Zuerst anpassen</translation>
    </message>
    <message>
        <source>Saved as {name}: every fabric chooser offers it.</source>
        <translation>Als {name} gespeichert: Jede Stoffauswahl bietet ihn an.</translation>
    </message>
    <message>
        <source>Name: type a name for your fabric</source>
        <translation>Name: Geben Sie einen Namen für Ihren Stoff ein</translation>
    </message>
    <message>
        <source>{name} is a preset fabric: choose another name</source>
        <translation>{name} ist eine Stoffvorlage: Wählen Sie einen anderen Namen</translation>
    </message>
    <message>
        <source>You already have a fabric named {name}: choose another name</source>
        <translation>Sie haben bereits einen Stoff namens {name}: Wählen Sie einen anderen Namen</translation>
    </message>
    <message>
        <source>in {unit}</source>
        <translation>in {unit}</translation>
    </message>
    <message>
        <source>Panels: {panels}</source>
        <translation>Leisten: {panels}</translation>
    </message>
    <message>
        <source>the stored window layout could not be read; using the default layout</source>
        <translation>die gespeicherte Fensteranordnung konnte nicht gelesen werden; die Standardanordnung wird verwendet</translation>
    </message>
    <message>
        <source>Scene as loaded</source>
        <translation>Szene wie geladen</translation>
    </message>
    <message>
        <source>Questions</source>
        <translation>Fragen</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validierung</translation>
    </message>
    <message>
        <source>Stopwatch</source>
        <translation>Stoppuhr</translation>
    </message>
    <message>
        <source>Probes</source>
        <translation>Sonden</translation>
    </message>
    <message>
        <source>Reset: back to t = 0, the scene as set up</source>
        <translation>Zurückgesetzt: wieder bei t = 0, die Szene wie aufgebaut</translation>
    </message>
    <message>
        <source>The model became unstable</source>
        <translation>Das Modell wurde instabil</translation>
    </message>
    <message>
        <source>Cannot build the scene</source>
        <translation>Die Szene kann nicht aufgebaut werden</translation>
    </message>
    <message>
        <source>OpenGL failed: {reason}</source>
        <translation>OpenGL ist fehlgeschlagen: {reason}</translation>
    </message>
    <message>
        <source>{count} settings</source>
        <translation>{count} Einstellungen</translation>
    </message>
    <message>
        <source>Class mode: {hidden} hidden (View ▸ Leave class mode)</source>
        <translation>Klassenmodus: {hidden} ausgeblendet (Ansicht ▸ Klassenmodus verlassen)</translation>
    </message>
    <message>
        <source>Saved your fabric {name}: the fabric choosers offer it</source>
        <translation>Ihr Stoff {name} wurde gespeichert: die Stoffauswahlen bieten ihn an</translation>
    </message>
    <message>
        <source>Autosave every</source>
        <translation>Automatisch speichern alle</translation>
    </message>
    <message>
        <source>How often unsaved changes are written to the recovery file (CLOTHLAB_AUTOSAVE_SECONDS, when set, wins).</source>
        <translation>Wie oft ungespeicherte Änderungen in die Wiederherstellungsdatei geschrieben werden (CLOTHLAB_AUTOSAVE_SECONDS hat Vorrang, wenn gesetzt).</translation>
    </message>
    <message>
        <source>Frame-rate cap</source>
        <translation>Maximale Bildrate</translation>
    </message>
    <message>
        <source>Most frames the 3D view and the panels draw per second; lower leaves more of the machine to the solver.</source>
        <translation>Höchstzahl der Bilder, die die 3D-Ansicht und die Leisten pro Sekunde zeichnen; ein niedrigerer Wert lässt dem Löser mehr Rechenleistung.</translation>
    </message>
    <message>
        <source>Model time the Readouts plots show: the panel&apos;s Window box starts at this.</source>
        <translation>Modellzeit, die die Diagramme der Messwerte zeigen: Das Feld „Zeitfenster“ der Leiste beginnt mit diesem Wert.</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>System: the desktop&apos;s colours. Light or Dark: Cloth Lab&apos;s own.</source>
        <translation>System: die Farben der Arbeitsumgebung. Hell oder Dunkel: die eigenen von Cloth Lab.</translation>
    </message>
    <message>
        <source>As the system&apos;s</source>
        <translation>Wie das System</translation>
    </message>
    <message>
        <source>Cloth Lab speaks it from its next start.</source>
        <translation>Cloth Lab verwendet sie ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Farbschema</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>{tooltip} ({minimum} … {maximum} {unit}, default {default})</source>
        <translation>{tooltip} ({minimum} … {maximum} {unit}, Standard {default})</translation>
    </message>
    <message>
        <source>Cloth Lab recordings (*.clothrec.json *.json);;All files (*)</source>
        <translation>Cloth-Lab-Aufnahmen (*.clothrec.json *.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>Wiedergabe</translation>
    </message>
    <message>
        <source>The recording being replayed</source>
        <translation>Die Aufnahme, die wiedergegeben wird</translation>
    </message>
    <message>
        <source>Drag to any step of the recording: the run is rebuilt exactly</source>
        <translation>Ziehen Sie zu einem beliebigen Schritt der Aufnahme: Der Lauf wird exakt nachgebildet</translation>
    </message>
    <message>
        <source>The step shown; type one to go there</source>
        <translation>Der angezeigte Schritt; geben Sie einen ein, um dorthin zu springen</translation>
    </message>
    <message>
        <source>The recording&apos;s length</source>
        <translation>Die Länge der Aufnahme</translation>
    </message>
    <message>
        <source>of {steps} ({seconds:.2f} s)</source>
        <translation>von {steps} ({seconds:.2f} s)</translation>
    </message>
    <message>
        <source>● Recording — step {step}</source>
        <translation>● Aufnahme – Schritt {step}</translation>
    </message>
    <message numerus="yes">
        <source>Recorded %n step(s): Simulation ▸ Save recording… keeps them</source>
        <translation>
            <numerusform>%n Schritt aufgenommen: Simulation ▸ Aufnahme speichern… sichert ihn</numerusform>
            <numerusform>%n Schritte aufgenommen: Simulation ▸ Aufnahme speichern… sichert sie</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Recording ended before “{change}” (a change of bodies starts the model afresh): %n step(s) kept, Simulation ▸ Save recording… saves them</source>
        <translation>
            <numerusform>Aufnahme vor „{change}“ beendet (eine Änderung der Körper startet das Modell neu): %n Schritt behalten, Simulation ▸ Aufnahme speichern… speichert ihn</numerusform>
            <numerusform>Aufnahme vor „{change}“ beendet (eine Änderung der Körper startet das Modell neu): %n Schritte behalten, Simulation ▸ Aufnahme speichern… speichert sie</numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing recorded yet: Simulation ▸ Record first</source>
        <translation>Noch nichts aufgenommen: zuerst Simulation ▸ Aufnehmen</translation>
    </message>
    <message>
        <source>Save recording</source>
        <translation>Aufnahme speichern</translation>
    </message>
    <message>
        <source>Cannot save recording</source>
        <translation>Aufnahme kann nicht gespeichert werden</translation>
    </message>
    <message numerus="yes">
        <source>Saved a recording of %n step(s) to {path}</source>
        <translation>
            <numerusform>Aufnahme mit %n Schritt in {path} gespeichert</numerusform>
            <numerusform>Aufnahme mit %n Schritten in {path} gespeichert</numerusform>
        </translation>
    </message>
    <message>
        <source>Open recording</source>
        <translation>Aufnahme öffnen</translation>
    </message>
    <message>
        <source>Cannot open recording</source>
        <translation>Aufnahme kann nicht geöffnet werden</translation>
    </message>
    <message numerus="yes">
        <source>Replaying %n step(s): Space plays, the slider seeks</source>
        <translation>
            <numerusform>Wiedergabe von %n Schritt: Leertaste spielt ab, der Schieberegler springt</numerusform>
            <numerusform>Wiedergabe von %n Schritten: Leertaste spielt ab, der Schieberegler springt</numerusform>
        </translation>
    </message>
    <message>
        <source>Replay finished at step {step}</source>
        <translation>Wiedergabe bei Schritt {step} beendet</translation>
    </message>
    <message>
        <source>Preparing the solver: its first run compiles it (this takes up to a minute)…</source>
        <translation>Der Löser wird vorbereitet: sein erster Lauf kompiliert ihn (das dauert bis zu einer Minute)…</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>Pausiert</translation>
    </message>
    <message>
        <source>t = {t:.2f} s</source>
        <translation>t = {t:.2f} s</translation>
    </message>
    <message>
        <source>Model seconds per wall-clock second (real-time factor)</source>
        <translation>Modellsekunden pro Sekunde Echtzeit (Echtzeitfaktor)</translation>
    </message>
    <message>
        <source>— fps</source>
        <translation>— fps</translation>
    </message>
    <message>
        <source>Frames drawn by the viewport per second</source>
        <translation>Von der 3D-Ansicht gezeichnete Bilder pro Sekunde</translation>
    </message>
    <message>
        <source>Particles and live links</source>
        <translation>Partikel und intakte Verbindungen</translation>
    </message>
    <message>
        <source>{message}: tangled, and nothing in the model will undo it. Reset starts again from the rest shape, keeping your edits.</source>
        <translation>{message}: verheddert, und nichts im Modell löst das wieder auf. „Zurücksetzen“ beginnt erneut bei der Ruheform und behält Ihre Bearbeitungen.</translation>
    </message>
    <message>
        <source>{message}. {label}: one undoable change of the settings.</source>
        <translation>{message}. {label}: eine Änderung der Einstellungen, die sich rückgängig machen lässt.</translation>
    </message>
    <message>
        <source>{message}. {label}: one undoable change of the settings, then a start from rest.</source>
        <translation>{message}. {label}: eine Änderung der Einstellungen, die sich rückgängig machen lässt, dann ein Neubeginn aus der Ruhelage.</translation>
    </message>
    <message>
        <source>{fps:.0f} fps</source>
        <translation>{fps:.0f} fps</translation>
    </message>
    <message>
        <source>{particles} particles · {links} links</source>
        <translation>{particles} Partikel · {links} Verbindungen</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>— × real time</source>
        <translation>— × Echtzeit</translation>
    </message>
    <message>
        <source>{factor:.2f}× real time — can&apos;t keep up</source>
        <translation>{factor:.2f}× Echtzeit — kommt nicht hinterher</translation>
    </message>
    <message>
        <source>{factor:.2f}× real time</source>
        <translation>{factor:.2f}× Echtzeit</translation>
    </message>
    <message>
        <source>the scene has no sheet to cut a seam in</source>
        <translation>die Szene hat kein Tuch, in das eine Naht geschnitten werden könnte</translation>
    </message>
    <message>
        <source>sheet {sheet}: the scene has {count} sheets</source>
        <translation>Tuch {sheet}: die Szene hat {count} Tücher</translation>
    </message>
    <message>
        <source>no recording is being replayed</source>
        <translation>es wird keine Aufnahme wiedergegeben</translation>
    </message>
    <message>
        <source>the scene has no file yet: choose one with Save As</source>
        <translation>die Szene hat noch keine Datei: Wählen Sie eine mit „Speichern unter“</translation>
    </message>
    <message>
        <source>no frame of the scene has been computed yet</source>
        <translation>es wurde noch kein Bild der Szene berechnet</translation>
    </message>
    <message>
        <source>Reset: 1 pin is away from its rest place — the cloth starts stretched</source>
        <translation>Zurücksetzen: 1 Fixpunkt ist nicht an seiner Ruheposition — das Tuch beginnt gedehnt</translation>
    </message>
    <message>
        <source>Reset: {count} pins are away from their rest places — the cloth starts stretched</source>
        <translation>Zurücksetzen: {count} Fixpunkte sind nicht an ihren Ruhepositionen — das Tuch beginnt gedehnt</translation>
    </message>
    <message>
        <source>chord angle {angle:g}°: expected an angle between 0 and 90°</source>
        <translation>Sehnenwinkel {angle:g}°: erwartet wird ein Winkel zwischen 0 und 90°</translation>
    </message>
    <message>
        <source>a {angle:g}° droop at {overhang:g} cm</source>
        <translation>ein Abfall auf {angle:g}° bei {overhang:g} cm</translation>
    </message>
    <message>
        <source>drape coefficient {value:g} %: expected a value between 0 and 100 %</source>
        <translation>Fallkoeffizient {value:g} %: erwartet wird ein Wert zwischen 0 und 100 %</translation>
    </message>
    <message>
        <source>a drape coefficient of {value:g} %</source>
        <translation>ein Fallkoeffizient von {value:g} %</translation>
    </message>
    <message>
        <source>the drape coefficient did not rise with B through the target over the sweep</source>
        <translation>der Fallkoeffizient stieg über die Reihe nicht mit B durch den Zielwert</translation>
    </message>
    <message>
        <source>{what} is outside what B from {low:.3g} to {high:.3g} N·m gives ({least:.1f}…{most:.1f}{unit})</source>
        <translation>{what} liegt außerhalb dessen, was B von {low:.3g} bis {high:.3g} N·m ergibt ({least:.1f}…{most:.1f}{unit})</translation>
    </message>
    <message>
        <source>the sweep would need B from {first:.3g} to {last:.3g} N·m, beyond the {low:g}…{high:g} N·m a fabric may have: check the density and what was measured</source>
        <translation>die Reihe bräuchte B von {first:.3g} bis {last:.3g} N·m, jenseits der {low:g}…{high:g} N·m, die ein Stoff haben kann: prüfen Sie die Dichte und die Messung</translation>
    </message>
    <message>
        <source>the fit was stopped</source>
        <translation>die Anpassung wurde abgebrochen</translation>
    </message>
    <message>
        <source>fabric: the scene&apos;s cloth is of an SI fabric, which fabric= does not change (its numbers are the cloth&apos;s); material=NAME gives it another</source>
        <translation>fabric: das Tuch der Szene ist aus einem SI-Stoff, den fabric= nicht ändert (seine Zahlen sind die des Tuchs); material=NAME gibt ihm einen anderen</translation>
    </message>
    <message>
        <source>{label}{typed}: expected a whole number {minimum}…{maximum}{unit}</source>
        <translation>{label}{typed}: erwartet wird eine ganze Zahl von {minimum} bis {maximum}{unit}</translation>
    </message>
    <message>
        <source>{label}{typed}: expected a number {minimum}…{maximum}{unit}</source>
        <translation>{label}{typed}: erwartet wird eine Zahl von {minimum} bis {maximum}{unit}</translation>
    </message>
    <message>
        <source>{label}{typed}: expected {minimum}…{maximum}{unit}</source>
        <translation>{label}{typed}: erwartet wird ein Wert von {minimum} bis {maximum}{unit}</translation>
    </message>
    <message>
        <source>Predict again</source>
        <translation>Noch einmal vorhersagen</translation>
    </message>
    <message>
        <source>A new prediction for practice: the first one still counts, every one is kept</source>
        <translation>Eine neue Vorhersage zum Üben: die erste zählt weiter, jede wird aufbewahrt</translation>
    </message>
    <message>
        <source>Locked in {time}: {prediction}</source>
        <translation>Festgelegt {time}: {prediction}</translation>
    </message>
    <message>
        <source> ({count} attempts; the first counts)</source>
        <translation> ({count} Versuche; der erste zählt)</translation>
    </message>
    <message>
        <source>Other checks, kept as in the file</source>
        <translation>Weitere Prüfungen, wie in der Datei</translation>
    </message>
    <message>
        <source>Delete check</source>
        <translation>Prüfung löschen</translation>
    </message>
    <message>
        <source>Delete the check chosen in the list</source>
        <translation>Die in der Liste gewählte Prüfung löschen</translation>
    </message>
    <message>
        <source>and {count} check kept from the file:</source>
        <translation>und {count} Prüfung aus der Datei:</translation>
    </message>
    <message>
        <source>and {count} checks kept from the file:</source>
        <translation>und {count} Prüfungen aus der Datei:</translation>
    </message>
    <message>
        <source>evidence: the scene “{scene}” never shows {readout}: choose another</source>
        <translation>Beleg: die Szene „{scene}“ zeigt {readout} nie: bitte einen anderen wählen</translation>
    </message>
    <message>
        <source>Checking before saving…</source>
        <translation>Vor dem Speichern wird geprüft…</translation>
    </message>
    <message>
        <source>Not saved: {failed} checks fail</source>
        <translation>Nicht gespeichert: {failed} Prüfungen schlagen fehl</translation>
    </message>
    <message>
        <source>Checks fail</source>
        <translation>Prüfungen schlagen fehl</translation>
    </message>
    <message>
        <source>{failed} of {total} checks fail: the numbers do not bear the answers out. Save the set anyway?</source>
        <translation>{failed} von {total} Prüfungen schlagen fehl: die Zahlen bestätigen die Antworten nicht. Den Satz trotzdem speichern?</translation>
    </message>
    <message>
        <source>Teacher&apos;s passphrase</source>
        <translation>Passwort der Lehrkraft</translation>
    </message>
    <message>
        <source>Class mode: only the teacher may do this. Passphrase:</source>
        <translation>Klassenmodus: das darf nur die Lehrkraft. Passwort:</translation>
    </message>
    <message>
        <source>That is not the passphrase.</source>
        <translation>Das ist nicht das Passwort.</translation>
    </message>
    <message>
        <source>Class mode: {hidden} hidden</source>
        <translation>Klassenmodus: {hidden} ausgeblendet</translation>
    </message>
    <message>
        <source>teacher&apos;s passphrase</source>
        <translation>Passwort der Lehrkraft</translation>
    </message>
    <message>
        <source>Class mode asks for it before anyone leaves it, edits the questions or opens another set; the file keeps it, and the correct choices, only as salted hashes</source>
        <translation>Der Klassenmodus fragt danach, bevor jemand ihn verlässt, die Fragen bearbeitet oder einen anderen Satz öffnet; die Datei enthält es, wie die richtigen Antworten, nur als gesalzenen Hash</translation>
    </message>
    <message>
        <source>kept (type a new one to change it)</source>
        <translation>beibehalten (zum Ändern ein neues eingeben)</translation>
    </message>
    <message>
        <source>Cannot save: class mode needs a teacher&apos;s passphrase (under the panels)</source>
        <translation>Speichern nicht möglich: der Klassenmodus braucht ein Passwort der Lehrkraft (unter den Leisten)</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>Ihr Name</translation>
    </message>
    <message>
        <source>Your name (or the id your teacher gave you), once for this set:</source>
        <translation>Ihr Name (oder die Kennung von Ihrer Lehrkraft), einmal für diesen Satz:</translation>
    </message>
    <message>
        <source>Student: {name}</source>
        <translation>Schüler/in: {name}</translation>
    </message>
    <message>
        <source>{count} setting</source>
        <translation>{count} Einstellung</translation>
    </message>
    <message>
        <source>Teacher&apos;s passphrase:</source>
        <translation>Passwort der Lehrkraft:</translation>
    </message>
    <message>
        <source>Open a scene or question set</source>
        <translation>Szene oder Fragensatz öffnen</translation>
    </message>
    <message>
        <source>Cloth Lab files (*.json);;All files (*)</source>
        <translation>Cloth-Lab-Dateien (*.json);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Title</source>
        <translation>Titel</translation>
    </message>
    <message>
        <source>What to watch</source>
        <translation>Worauf achten</translation>
    </message>
    <message>
        <source>Explanation</source>
        <translation>Erklärung</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>Beleg</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>leer</translation>
    </message>
    <message>
        <source>longer than {count} characters</source>
        <translation>länger als {count} Zeichen</translation>
    </message>
    <message>
        <source>more than {count}</source>
        <translation>mehr als {count}</translation>
    </message>
    <message>
        <source>Question {number}: {field}: {problem}</source>
        <translation>Frage {number}: {field}: {problem}</translation>
    </message>
    <message>
        <source>Student</source>
        <translation>Schüler/in</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>Per question</source>
        <translation>Pro Frage</translation>
    </message>
    <message>
        <source>Per student</source>
        <translation>Pro Schüler/in</translation>
    </message>
    <message>
        <source>Every student&apos;s answer to every question, as CSV</source>
        <translation>Jede Antwort jeder Schülerin und jedes Schülers auf jede Frage, als CSV</translation>
    </message>
    <message>
        <source>Export class results</source>
        <translation>Klassenergebnisse exportieren</translation>
    </message>
    <message>
        <source>Cut the seam first (the seam cut before step 0)</source>
        <translation>Zuerst die Naht schneiden (vor Schritt 0)</translation>
    </message>
    <message>
        <source>A preset as the question&apos;s scene</source>
        <translation>Eine Vorlage als Szene der Frage</translation>
    </message>
    <message>
        <source>{source}: not a CSV file (it holds NUL bytes)</source>
        <translation>{source}: keine CSV-Datei (sie enthält NUL-Bytes)</translation>
    </message>
    <message>
        <source>{source}: line 1: expected the header {header} (a file from the Questions panel&apos;s Export CSV…)</source>
        <translation>{source}: Zeile 1: erwartet wird die Kopfzeile {header} (eine Datei aus „CSV-Export…“ der Leiste „Fragen“)</translation>
    </message>
    <message>
        <source>{source}: line {line}</source>
        <translation>{source}: Zeile {line}</translation>
    </message>
    <message>
        <source>{where}: {count} columns, expected {expected}</source>
        <translation>{where}: {count} Spalten, erwartet werden {expected}</translation>
    </message>
    <message>
        <source>{source}: no questions listed</source>
        <translation>{source}: keine Fragen aufgeführt</translation>
    </message>
    <message>
        <source>{source}: answers to set {set}, not {first} like {first_source}</source>
        <translation>{source}: Antworten zum Satz {set}, nicht {first} wie {first_source}</translation>
    </message>
    <message>
        <source>✓ yes</source>
        <translation>✓ ja</translation>
    </message>
    <message>
        <source>✗ no</source>
        <translation>✗ nein</translation>
    </message>
    <message>
        <source>hold particle: {text} is not a particle&apos;s number</source>
        <translation>Partikel halten: {text} ist keine Partikelnummer</translation>
    </message>
    <message>
        <source>held at</source>
        <translation>gehalten bei</translation>
    </message>
    <message>
        <source>particle</source>
        <translation>Partikel</translation>
    </message>
    <message>
        <source>Hold a particle: {part}</source>
        <translation>Ein Partikel halten: {part}</translation>
    </message>
    <message>
        <source>Hold a particle at:</source>
        <translation>Ein Partikel halten bei:</translation>
    </message>
    <message>
        <source>One strip, three methods: (B/ρg)^⅓ from the fabric&apos;s numbers; ASTM D1388&apos;s half the overhang (its reading at a 41.5° droop); Peirce&apos;s formula l·(cos(θ/2)/(8·tan θ))^⅓ at the chord angle θ measured. They differ by a few per cent, as the methods do.</source>
        <translation>Ein Streifen, drei Verfahren: (B/ρg)^⅓ aus den Kennwerten des Stoffs; ASTM D1388: die halbe Überhanglänge (sein Ablesewert bei 41,5° Neigung); Peirces Formel l·(cos(θ/2)/(8·tan θ))^⅓ beim gemessenen Sehnenwinkel θ. Sie weichen um einige Prozent voneinander ab, wie die Verfahren.</translation>
    </message>
    <message>
        <source>Bending length: {rigidity} cm from (B/ρg)^⅓ · {astm} cm by ASTM (overhang/2) · {peirce} cm by Peirce&apos;s formula at {angle}°</source>
        <translation>Biegelänge: {rigidity} cm aus (B/ρg)^⅓ · {astm} cm nach ASTM (Überhang/2) · {peirce} cm nach Peirces Formel bei {angle}°</translation>
    </message>
    <message>
        <source>c = {length} cm from (B/ρg)^⅓</source>
        <translation>c = {length} cm aus (B/ρg)^⅓</translation>
    </message>
    <message>
        <source>B = {rigidity} N·m (bending length {length:.2f} cm from (B/ρg)^⅓). First guess {guess} N·m by Peirce&apos;s formula at {angle:g}°; ASTM&apos;s ρg(O/2)³ {astm} N·m</source>
        <translation>B = {rigidity} N·m (Biegelänge {length:.2f} cm aus (B/ρg)^⅓). Erster Schätzwert {guess} N·m nach Peirces Formel bei {angle:g}°; ρg(O/2)³ nach ASTM {astm} N·m</translation>
    </message>
    <message>
        <source>Fit draws here the strips it swept and the B it found, once a fit is done.</source>
        <translation>Nach einer Anpassung zeigt Anpassen hier die durchlaufenen Streifen und das gefundene B.</translation>
    </message>
    <message>
        <source>{body}: point pins on an SI fabric are a known limit: the sag under a point grows as the sheet is refined. Edit ▸ Pin selected sheet ▸ Pin top corner clamps holds it alike at any resolution.</source>
        <translation>{body}: Fixpunkte an einem SI-Stoff sind eine bekannte Grenze: der Durchhang unter einem Punkt wächst, wenn das Tuch verfeinert wird. Bearbeiten ▸ Ausgewähltes Tuch fixieren ▸ Obere Ecken klemmen hält es bei jeder Auflösung gleich.</translation>
    </message>
    <message numerus="yes">
        <source>Pin top corner clamps (%n pin(s))</source>
        <translation>
            <numerusform>Obere Ecken klemmen (%n Fixpunkt)</numerusform>
            <numerusform>Obere Ecken klemmen (%n Fixpunkte)</numerusform>
        </translation>
    </message>
    <message>
        <source>Pin top corner cl&amp;amps</source>
        <translation>Obere Ecken kle&amp;mmen</translation>
    </message>
    <message>
        <source>Hold the selected sheet at its rest place by every particle within a tenth of its width of a top corner, as a lab&apos;s clamp: unlike a point pin, it holds an SI fabric alike at any resolution</source>
        <translation>Das ausgewählte Tuch an seiner Ruhelage an jedem Partikel halten, das höchstens ein Zehntel seiner Breite von einer oberen Ecke entfernt ist, wie eine Klemme im Labor: anders als ein Fixpunkt hält sie einen SI-Stoff bei jeder Auflösung gleich</translation>
    </message>
</context>
</TS>
