// The Swing fixture's command line, with the ATK wrapper that puts it on the accessibility bus: the
// desktop and toolkit tests' app (scripts/run-tests.mjs) and the Python SDK job's.
export const SWING_FIXTURE =
  "java -Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper " +
  "-cp build/fixtures:/usr/share/java/java-atk-wrapper.jar DeskhandFixture";
