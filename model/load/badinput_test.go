package load

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
)

// badCase is a malformed model file and what its error must name.
type badCase struct {
	name, ext, text string
	line            int    // 0: any
	element, attr   string // "" : none expected
	msg             string // a substring of the message
}

var badCases = []badCase{
	// URDF
	{"urdf empty", ".urdf", "", 0, "", "", "no XML element"},
	{"urdf unclosed", ".urdf", "<robot name=\"r\">\n<link name=\"a\">\n</robot>", 3, "robot", "", "end tag without a matching start tag"},
	{"urdf wrong root", ".urdf", "<model/>", 1, "model", "", "root element must be <robot>"},
	{"urdf no links", ".urdf", "<robot name=\"r\"/>", 1, "robot", "", "no <link>"},
	{"urdf link without name", ".urdf", "<robot>\n  <link/>\n</robot>", 2, "link", "name", "missing"},
	{"urdf duplicate link", ".urdf", "<robot><link name=\"a\"/>\n<link name=\"a\"/></robot>", 2, "link", "name", "a second link"},
	{"urdf joint type", ".urdf", urdf2("type=\"hinge\"", ""), 4, "joint", "type", "want one of revolute"},
	{"urdf joint without parent", ".urdf", "<robot><link name=\"a\"/><link name=\"b\"/>\n<joint name=\"j\" type=\"fixed\"><child link=\"b\"/></joint></robot>", 2, "joint", "", "no <parent"},
	{"urdf unknown parent", ".urdf", "<robot><link name=\"a\"/><link name=\"b\"/><joint name=\"j\" type=\"fixed\">\n<parent link=\"zz\"/><child link=\"b\"/></joint></robot>", 2, "parent", "link", "no link of this name"},
	{"urdf cycle", ".urdf", "<robot><link name=\"a\"/><link name=\"b\"/>\n<joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/></joint>\n<joint name=\"j2\" type=\"fixed\"><parent link=\"b\"/><child link=\"a\"/></joint></robot>", 0, "robot", "", "cycle"},
	{"urdf two roots", ".urdf", "<robot><link name=\"a\"/>\n<link name=\"b\"/></robot>", 2, "link", "", "several root links"},
	{"urdf two parents", ".urdf", "<robot><link name=\"a\"/><link name=\"b\"/><link name=\"c\"/>\n<joint name=\"j1\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint>\n<joint name=\"j2\" type=\"fixed\"><parent link=\"b\"/><child link=\"c\"/></joint></robot>", 3, "child", "link", "at most one parent"},
	{"urdf mass not a number", ".urdf", urdfInertial(`<mass value="abc"/><inertia ixx="1" iyy="1" izz="1"/>`), 3, "mass", "value", "\"abc\" is not a number"},
	{"urdf negative mass", ".urdf", urdfInertial(`<mass value="-1"/><inertia ixx="1" iyy="1" izz="1"/>`), 3, "mass", "value", "≥ 0"},
	{"urdf origin count", ".urdf", urdf2("type=\"revolute\"", "<origin xyz=\"1 2\"/>"), 4, "origin", "xyz", "want 3 numbers, got 2"},
	{"urdf origin nan", ".urdf", urdf2("type=\"revolute\"", "<origin xyz=\"nan 0 0\"/>"), 4, "origin", "xyz", "not a finite number"},
	{"urdf zero axis", ".urdf", urdf2("type=\"revolute\"", "<axis xyz=\"0 0 0\"/>"), 4, "axis", "xyz", "non-zero"},
	{"urdf limits crossed", ".urdf", urdf2("type=\"revolute\"", "<limit lower=\"1\" upper=\"-1\" effort=\"1\" velocity=\"1\"/>"), 4, "limit", "lower", "above the upper limit"},
	{"urdf box side", ".urdf", "<robot><link name=\"a\"><collision><geometry>\n<box size=\"1 0 1\"/></geometry></collision></link></robot>", 2, "box", "size", "positive"},
	{"urdf two shapes", ".urdf", "<robot><link name=\"a\"><visual>\n<geometry><box size=\"1 1 1\"/><sphere radius=\"1\"/></geometry></visual></link></robot>", 2, "geometry", "", "exactly one shape"},
	{"urdf missing package", ".urdf", "<robot><link name=\"a\"><visual><geometry>\n<mesh filename=\"package://nowhere/m.obj\"/></geometry></visual></link></robot>", 2, "mesh", "filename", "package \"nowhere\" not found"},
	// SDFormat
	{"sdf wrong root", ".sdf", "<robot/>", 1, "robot", "", "root element must be <sdf>"},
	{"sdf no version", ".sdf", "<sdf>\n<model name=\"m\"/></sdf>", 1, "sdf", "version", "missing"},
	{"sdf two models", ".sdf", "<sdf version=\"1.7\"><model name=\"a\"/>\n<model name=\"b\"/></sdf>", 1, "sdf", "", "exactly one <model>"},
	{"sdf pose count", ".sdf", sdfModel("<link name=\"a\">\n<pose>1 2 3 4 5</pose></link>"), 3, "pose", "", "want 6 numbers, got 5"},
	{"sdf link name", ".sdf", sdfModel("\n<link name=\"a=b\"/>"), 3, "link", "name", "must not contain"},
	{"sdf unknown child", ".sdf", sdfModel("<link name=\"a\"/><joint name=\"j\" type=\"revolute\"><parent>world</parent>\n<child>zz</child></joint>"), 3, "child", "", "no link of this name"},
	{"sdf screw", ".sdf", sdfModel("<link name=\"a\"/>\n<joint name=\"j\" type=\"screw\"><parent>world</parent><child>a</child></joint>"), 3, "joint", "type", "not supported"},
	{"sdf frame cycle", ".sdf", sdfModel("<frame name=\"f\"><pose relative_to=\"g\"/></frame>\n<frame name=\"g\"><pose relative_to=\"f\"/></frame><link name=\"a\"><pose relative_to=\"f\"/></link>"), 0, "frame", "", "form a cycle"},
	{"sdf unknown relative_to", ".sdf", sdfModel("<link name=\"a\">\n<pose relative_to=\"nowhere\">0 0 0 0 0 0</pose></link>"), 0, "", "", "no frame \"nowhere\""},
	{"sdf universal axes", ".sdf", sdfModel(sdfLinkMass("a") + "\n<joint name=\"j\" type=\"universal\"><parent>world</parent><child>a</child><axis><xyz>1 0 0</xyz></axis><axis2><xyz>1 1 0</xyz></axis2></joint>"), 3, "axis2", "", "perpendicular"},
	{"sdf negative mass", ".sdf", sdfModel("<link name=\"a\"><inertial>\n<mass>-2</mass></inertial></link>"), 3, "mass", "", "≥ 0"},
	{"sdf missing include", ".sdf", sdfModel("<include>\n<uri>model://nowhere</uri></include>"), 3, "uri", "", "not found"},
	{"sdf joint axis zero", ".sdf", sdfModel(sdfLinkMass("a") + "<joint name=\"j\" type=\"revolute\"><parent>world</parent><child>a</child><axis>\n<xyz>0 0 0</xyz></axis></joint>"), 3, "xyz", "", "non-zero"},
	// MJCF
	{"mjcf wrong root", ".xml", "<robot/>", 1, "robot", "", "root element must be <mujoco>"},
	{"mjcf unknown class", ".xml", mj("<worldbody><body>\n<geom class=\"nope\" size=\"1\"/></body></worldbody>"), 3, "geom", "class", "no default class"},
	{"mjcf free joint with another", ".xml", mj("<worldbody><body name=\"b\"><joint/>\n<freejoint/><geom size=\"1\"/></body></worldbody>"), 3, "freejoint", "", "cannot be combined"},
	{"mjcf zero axis", ".xml", mj("<worldbody><body>\n<joint axis=\"0 0 0\"/><geom size=\"1\"/></body></worldbody>"), 3, "joint", "axis", "non-zero"},
	{"mjcf sphere without size", ".xml", mj("<worldbody><body><joint/>\n<geom type=\"sphere\"/></body></worldbody>"), 3, "geom", "size", "needs 1 size values"},
	{"mjcf fromto on sphere", ".xml", mj("<worldbody><body><joint/>\n<geom type=\"sphere\" size=\"1\" fromto=\"0 0 0 0 0 1\"/></body></worldbody>"), 3, "geom", "fromto", "not sphere"},
	{"mjcf unknown mesh", ".xml", mj("<worldbody><body><joint/>\n<geom type=\"mesh\" mesh=\"nope\"/></body></worldbody>"), 3, "geom", "mesh", "no mesh of this name"},
	{"mjcf zero quat", ".xml", mj("<worldbody>\n<body quat=\"0 0 0 0\"><geom size=\"1\"/></body></worldbody>"), 3, "body", "quat", "non-zero"},
	{"mjcf two orientations", ".xml", mj("<worldbody>\n<body quat=\"1 0 0 0\" euler=\"0 0 1\"><geom size=\"1\"/></body></worldbody>"), 3, "body", "euler", "at most one orientation"},
	{"mjcf keyframe length", ".xml", mj("<worldbody><body><joint/><geom size=\"1\"/></body></worldbody><keyframe>\n<key qpos=\"1 2\"/></keyframe>"), 3, "key", "qpos", "nq = 1"},
	{"mjcf integrator", ".xml", mj("\n<option integrator=\"Verlet\"/>"), 3, "option", "integrator", "want one of Euler"},
	{"mjcf inertial without inertia", ".xml", mj("<worldbody><body><joint/>\n<inertial mass=\"1\" pos=\"0 0 0\"/></body></worldbody>"), 3, "inertial", "", "diaginertia or fullinertia"},
	{"mjcf actuator joint", ".xml", mj("<worldbody><body><joint name=\"j\"/><geom size=\"1\"/></body></worldbody><actuator>\n<motor joint=\"k\"/></actuator>"), 3, "motor", "joint", "no joint of this name"},
	{"mjcf exclude body", ".xml", mj("<worldbody><body name=\"a\"><joint/><geom size=\"1\"/></body></worldbody><contact>\n<exclude body1=\"a\" body2=\"zz\"/></contact>"), 3, "exclude", "body2", "no body of this name"},
	{"mjcf compiler angle", ".xml", mj("\n<compiler angle=\"gradian\"/>"), 3, "compiler", "angle", "want one of degree, radian"},
	{"mjcf plane on moving body", ".xml", mj("<worldbody><body><joint/>\n<geom type=\"plane\" size=\"1 1 1\"/></body></worldbody>"), 3, "geom", "type", "half-space"},
	{"mjcf nested free joint", ".xml", mj("<worldbody><body><joint/><geom size=\"1\"/><body>\n<freejoint/><geom size=\"1\"/></body></body></worldbody>"), 3, "freejoint", "", "top-level body"},
	{"mjcf massless moving body", ".xml", mj("<worldbody>\n<body name=\"b\"><joint/></body></worldbody>"), 3, "body", "", "has no mass"},
	{"mjcf include cycle", ".xml", mj("\n<include file=\"bad.xml\"/>"), 3, "include", "file", "include cycle"},
	{"mjcf actuator gear not a number", ".xml", mjHinge("<actuator>\n<motor joint=\"j\" gear=\"1 q\"/></actuator>"), 3, "motor", "gear", "q"},
	{"mjcf position kp 0", ".xml", mjHinge("<actuator>\n<position joint=\"j\" kp=\"0\"/></actuator>"), 3, "position", "kp", "kp > 0"},
	{"mjcf forcerange crossed", ".xml", mjHinge("<actuator>\n<motor joint=\"j\" forcerange=\"2 -2\"/></actuator>"), 3, "motor", "forcerange", "lower bound above the upper"},
	{"mjcf ctrl count", ".xml", mjHinge("<actuator><motor joint=\"j\"/></actuator><keyframe>\n<key ctrl=\"1 2\"/></keyframe>"), 3, "key", "ctrl", "nu = 1"},
	{"mjcf equality solref", ".xml", mjHinge("<equality>\n<joint joint1=\"j\" solref=\"0.02 -1\"/></equality>"), 3, "joint", "solref", "timeconst > 0, dampratio > 0"},
	{"mjcf connect one body", ".xml", mjHinge("<equality>\n<connect body1=\"b\" body2=\"b\" anchor=\"0 0 0\"/></equality>"), 3, "connect", "body2", "two different bodies"},
	{"mjcf joint equality on ball", ".xml", mj("<worldbody><body name=\"b\"><joint name=\"j\" type=\"ball\"/><geom size=\"1\"/></body></worldbody><equality>\n<joint joint1=\"j\"/></equality>"), 3, "joint", "joint1", "couples hinge and slide"},
	{"mjcf ball range", ".xml", mj("<compiler angle=\"radian\"/><worldbody><body>\n<joint type=\"ball\" range=\"0 4\"/><geom size=\"1\"/></body></worldbody>"), 3, "joint", "range", "(0, π]"},
	{"urdf transmission reduction 0", ".urdf", urdfActuated("<mechanicalReduction>0</mechanicalReduction>"), 0, "transmission", "", "must be non-zero"},
	{"urdf negative controller gain", ".urdf", urdfActuated("<drake:controller_gains p=\"-1\" d=\"1\"/>"), 0, "drake:controller_gains", "p", "≥ 0"},
	{"sdf negative gear ratio", ".sdf", sdfModel(sdfLinkMass("a") + "<joint name=\"j\" type=\"revolute\"><parent>world</parent><child>a</child><axis><xyz>0 0 1</xyz></axis>\n<drake:gear_ratio>-3</drake:gear_ratio></joint>"), 3, "drake:gear_ratio", "", "≥ 0"},
}

// mjHinge is an MJCF model with a hinge joint j on body b, and extra.
func mjHinge(extra string) string {
	return mj("<worldbody><body name=\"b\"><joint name=\"j\"/><geom size=\"1\"/></body></worldbody>" + extra)
}

// massLink is a URDF link with mass.
func massLink(name string) string {
	return "<link name=\"" + name + "\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial></link>"
}

// urdfActuated is a URDF pendulum with a transmission whose actuator holds
// extra.
func urdfActuated(extra string) string {
	return "<robot name=\"r\" xmlns:drake=\"http://drake.mit.edu\"><link name=\"a\"/>" + massLink("b") + "<joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/></joint>\n<transmission name=\"t\"><joint name=\"j\"/><actuator name=\"m\">" + extra + "</actuator></transmission></robot>"
}

func urdf2(typ, extra string) string {
	return "<robot name=\"r\">\n<link name=\"a\"/>\n<link name=\"b\"/>\n<joint name=\"j\" " + typ + ">" + extra + "<parent link=\"a\"/><child link=\"b\"/></joint>\n</robot>"
}

func urdfInertial(body string) string {
	return "<robot name=\"r\">\n<link name=\"a\"><inertial>\n" + body + "</inertial></link>\n</robot>"
}

func sdfModel(body string) string {
	return "<sdf version=\"1.7\">\n<model name=\"m\">" + body + "</model>\n</sdf>"
}

func sdfLinkMass(name string) string {
	return "<link name=\"" + name + "\"><inertial><mass>1</mass><inertia><ixx>1</ixx><iyy>1</iyy><izz>1</izz></inertia></inertial></link>"
}

func mj(body string) string { return "<mujoco>\n" + body + "\n</mujoco>" }

// TestBadInput: every malformed file gives an *xmlutil.Error naming the
// file, the line, the element and the attribute where there is one, and
// saying what is wrong; none panics.
func TestBadInput(t *testing.T) {
	if len(badCases) < 40 {
		t.Fatalf("only %d cases", len(badCases))
	}
	dir := t.TempDir()
	for _, c := range badCases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, "bad"+c.ext)
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Model(path, model.Options{})
			var xe *xmlutil.Error
			if !errors.As(err, &xe) {
				t.Fatalf("got %v (%T), want an *xmlutil.Error", err, err)
			}
			if xe.File != path || (c.line > 0 && xe.Line != c.line) || xe.Element != c.element && c.element != "" || xe.Attribute != c.attr || !strings.Contains(xe.Msg, c.msg) {
				t.Errorf("got %q\n  (file %s line %d element %q attribute %q)\nwant line %d element %q attribute %q message containing %q",
					err, xe.File, xe.Line, xe.Element, xe.Attribute, c.line, c.element, c.attr, c.msg)
			}
			if !strings.HasPrefix(err.Error(), path+":") {
				t.Errorf("message %q does not start with the file name", err)
			}
		})
	}
}

// TestUnsupportedWarnings: an element or attribute that is not supported is
// a warning naming file, line, element and attribute, in every format.
func TestUnsupportedWarnings(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		ext, text, want string
	}{
		{".urdf", "<robot name=\"r\">\n<link name=\"a\" color=\"red\"/>\n<gazebo/>\n</robot>", "bad.urdf:2: <link> color: attribute not supported (ignored)|bad.urdf:3: <gazebo>: element not supported (ignored)"},
		{".sdf", "<sdf version=\"1.7\">\n<model name=\"m\"><static>true</static>\n<link name=\"a\" fancy=\"1\"/>\n<plugin name=\"p\"/></model></sdf>", "bad.sdf:3: <link> fancy: attribute not supported (ignored)|bad.sdf:4: <plugin>: element not supported (ignored)"},
		{".xml", "<mujoco>\n<worldbody><body><joint/><geom size=\"1\"\n  fitscale=\"2\"/></body>\n<camera/></worldbody></mujoco>", "bad.xml:3: <geom> fitscale: attribute not supported (ignored)|bad.xml:4: <camera>: element not supported (ignored)"},
	} {
		path := filepath.Join(dir, "bad"+c.ext)
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		im, err := Model(path, model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, w := range im.Warnings {
			got = append(got, strings.TrimPrefix(w.String(), dir+"/"))
		}
		for _, w := range strings.Split(c.want, "|") {
			found := false
			for _, g := range got {
				found = found || g == w
			}
			if !found {
				t.Errorf("%s: no warning %q in\n%s", c.ext, w, strings.Join(got, "\n"))
			}
		}
	}
}
