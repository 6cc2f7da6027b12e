// Package urdf reads URDF robot descriptions (ROS) into a model.Import:
// links with their inertial, visual and collision elements (box, cylinder,
// sphere, mesh; Drake's capsule), joints (revolute, continuous, prismatic,
// fixed, floating, planar) with origin, axis, limit (position limits and
// effort, enforced) and dynamics (damping, and friction as joint
// friction), mimic (a near-rigid joint coupler constraint), transmissions
// (motor actuators, or PD servos with Drake's drake:controller_gains;
// Drake's drake:gear_ratio² × drake:rotor_inertia as the joint's
// armature), material colours, Drake's
// drake:collision_filter_group (excluded body pairs) and
// drake:proximity_properties (contact material), and package:// mesh URIs
// through a search path.
//
// The root link (the one link that is no joint's child) is welded to the
// world at the origin, or free with model.Options.Floating. A root link
// named "world" is the world itself (as DART, Pinocchio and Gazebo read
// it): the joints from it attach the robot, a fixed one placing the base.
//
// Files as real robots write them load with a warning where other
// libraries accept them (see inertia.go for the rules): non-physical
// inertias are projected onto the nearest physical ones; a massless link
// on a moving joint gets MinMass, and one with an inertia on a fixed joint
// below a moving link WeldedMinMass, keeping its inertia as DART does;
// the axis of a fixed joint is ignored; transmissions with other than one
// joint or naming no joint, and mimics of missing or non-1-dof joints, are
// skipped; '.', '=', '[' and ']' in link names become '_'; a repeated
// actuator name gets the joint's name appended; package:///PKG/... reads
// as package://PKG/..., and the directories of ROS_PACKAGE_PATH are
// searched for packages after model.Options.PackagePaths and the folders
// above the file. COLLADA (.dae) meshes are read by model/mesh (triangles,
// polylists and polygons, node transforms, unit and up axis). Every link
// becomes a scene body named after it and every joint the joint of its
// child link, with the joint's name. The link frame is the joint frame at
// q = 0, as URDF defines it: parent_frame is the joint's origin and
// child_frame the identity (a planar joint's frames are turned so that
// their z axis is the joint's normal). Elements and attributes this package
// does not read are reported as warnings naming file, line, element and
// attribute.
package urdf
